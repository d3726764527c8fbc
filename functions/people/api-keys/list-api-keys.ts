import * as merchantRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { listApiKeySummaries } from '../../../shared/people/api-keys.service.ts';

export const handler = route(merchantRoutes.listApiKeys, async ({ merchant }) => ({ status: 200, body: await listApiKeySummaries(merchant.id) }));
