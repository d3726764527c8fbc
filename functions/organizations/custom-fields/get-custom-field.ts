import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { getCustomField } from '../../../shared/organizations/custom-fields.service.ts';

export const handler = route(organizationRoutes.getCustomField, async ({ organization, query }) => ({
  status: 200,
  body: objectReply(await getCustomField(organization.id, query.resource, query.name)),
}));
