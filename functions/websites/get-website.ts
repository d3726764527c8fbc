import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { getWebsite } from '../../shared/services/websites.ts';

export const handler = route(organizationRoutes.getWebsite, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getWebsite(organization.id, params.websiteId!)),
}));
