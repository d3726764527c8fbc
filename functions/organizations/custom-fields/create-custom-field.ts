import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { createCustomField } from '../../../shared/organizations/custom-fields.service.ts';

export const handler = route(organizationRoutes.createCustomField, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createCustomField(organization.id, body)),
}));
