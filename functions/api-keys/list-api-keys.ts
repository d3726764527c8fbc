import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { listApiKeySummaries } from '../../shared/services/api-keys.ts';

export const handler = route(routes.listApiKeys, async ({ merchant }) => ({ status: 200, body: await listApiKeySummaries(merchant.id) }));
