import { route } from '../../../shared/access/auth-account-secret.ts';
import * as organizationRoutes from '../../../shared/organizations/routes.ts';
import { createKey } from '../../../shared/organizations/accounts.service.ts';

export const handler = route(organizationRoutes.createOrgApiKey, async ({ principal }) => ({ status: 201, body: { data: await createKey(principal) } }));
