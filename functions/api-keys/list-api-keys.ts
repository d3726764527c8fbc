import * as merchantRoutes from '../../shared/routes/merchant.ts';
import { route } from '../../shared/http/auth-api-key.ts';
import { listApiKeySummaries } from '../../shared/services/api-keys.ts';

export const handler = route(merchantRoutes.listApiKeys, async ({ merchant }) => ({ status: 200, body: await listApiKeySummaries(merchant.id) }));
