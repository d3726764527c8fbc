import { route } from '../../shared/http/auth-account-secret.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { rotateKey } from '../../shared/services/accounts.ts';

export const handler = route(organizationRoutes.rotateOrgApiKey, async ({ principal, params }) => ({
  status: 200,
  body: { data: await rotateKey(principal, params.apiKeyId!) },
}));
