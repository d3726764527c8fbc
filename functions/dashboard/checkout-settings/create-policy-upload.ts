import { route } from '../../../shared/access/auth-session.ts';
import { createDashboardPolicyUpload } from '../../../shared/dashboard/checkout-settings/api-routes.ts';
import { policyUploadOf } from '../../../shared/dashboard/checkout-settings/checkout-settings.service.ts';

export const handler = route(createDashboardPolicyUpload, async ({ merchant, params, body }) => ({
  status: 201,
  body: await policyUploadOf(merchant, params.policyType, body),
}));
