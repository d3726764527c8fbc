/**
 * The checkout settings page's JSON route (session auth): the presigned PUT of a policy PDF that the page's script
 * asks for before it sends the file straight to storage. Kept apart from `routes.ts`, whose exports are all
 * dashboard pages.
 */
import { unknownPolicyType } from '../../domain/unknown-ids.ts';
import { managers, type RouteDef } from '../../platform/http/route-def.ts';
import { policyUpload } from '../../checkout/checkout-policies.schemas.ts';
import { dashboardPolicyUploadRequest } from './policies.schemas.ts';

export const createDashboardPolicyUpload = {
  face: 'dashboard-api',
  name: 'dashboard-checkout-policies-upload',
  method: 'POST',
  path: '/api/v1/dashboard/merchants/{merchantId}/checkout-policies/{policyType}/upload',
  handler: 'functions/dashboard/checkout-settings/create-policy-upload.ts',
  auth: 'session',
  roles: managers,
  group: 'dashboard',
  table: 'read',
  policyStorage: 'write',
  body: dashboardPolicyUploadRequest,
  status: 201,
  // The organization API's presigned PUT, as its `data`.
  response: policyUpload,
  unknownId: unknownPolicyType,
  summary: 'A presigned PUT (15 minutes) for a policy PDF of the given size (at most 10 MiB), as the checkout settings page uploads it (owners and admins).',
} as const satisfies RouteDef;
