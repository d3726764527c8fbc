import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { listWebsites } from '../../../shared/organizations/websites.service.ts';

export const handler = route(organizationRoutes.listWebsites, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listWebsites(organization.id, query), query),
}));
