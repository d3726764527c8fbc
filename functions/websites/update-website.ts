import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { updateWebsite } from '../../shared/services/websites.ts';

export const handler = route(organizationRoutes.updateWebsite, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updateWebsite(organization.id, params.websiteId!, body)),
}));
