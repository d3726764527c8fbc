import { route } from '../../../shared/access/auth-account-secret.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { rotateKey } from '../../../shared/organizations/accounts.service.ts';

export const handler = route(organizationRoutes.rotateOrgApiKey, async ({ principal, params }) => ({
  status: 200,
  body: { data: await rotateKey(principal, params.apiKeyId) },
}));
