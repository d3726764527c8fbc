import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { getKey } from '../../../shared/organizations/accounts.service.ts';

export const handler = route(organizationRoutes.getOrgApiKey, async ({ principal, params }) => ({
  status: 200,
  body: { data: await getKey(principal.accountId, params.apiKeyId) },
}));
