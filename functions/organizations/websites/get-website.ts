import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { getWebsite } from '../../../shared/organizations/websites.service.ts';

export const handler = route(organizationRoutes.getWebsite, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getWebsite(organization.id, params.websiteId)),
}));
