import { listReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { listWebsites } from '../../shared/services/websites.ts';

export const handler = route(organizationRoutes.listWebsites, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listWebsites(organization.id, query), query),
}));
