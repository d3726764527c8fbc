import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/organizations/routes.ts';
import { linkAccount } from '../../shared/organizations/organizations.service.ts';

export const handler = route(organizationRoutes.linkOrganizationAccount, async ({ principal, query, body }) => ({
  status: 201,
  body: objectReply(await linkAccount(principal, query.accountId, body)),
}));
