import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { createCustomField } from '../../shared/services/custom-fields.ts';

export const handler = route(organizationRoutes.createCustomField, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createCustomField(organization.id, body)),
}));
