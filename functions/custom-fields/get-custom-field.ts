import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { getCustomField } from '../../shared/services/custom-fields.ts';

export const handler = route(organizationRoutes.getCustomField, async ({ organization, query }) => ({
  status: 200,
  body: objectReply(await getCustomField(organization.id, query.resource, query.name)),
}));
