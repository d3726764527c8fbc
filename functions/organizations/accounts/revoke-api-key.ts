import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { revokeKey } from '../../../shared/organizations/accounts.service.ts';

export const handler = route(organizationRoutes.revokeOrgApiKey, async ({ principal, params }) => ({
  status: 200,
  body: { data: await revokeKey(principal.accountId, params.apiKeyId) },
}));
