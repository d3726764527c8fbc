import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { updateWebsite } from '../../../shared/organizations/websites.service.ts';

export const handler = route(organizationRoutes.updateWebsite, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updateWebsite(organization.id, params.websiteId, body)),
}));
