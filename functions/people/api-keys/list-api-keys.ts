import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { listApiKeySummaries } from '../../../shared/people/api-keys.service.ts';

export const handler = route(peopleRoutes.listApiKeys, async ({ merchant }) => ({ status: 200, body: await listApiKeySummaries(merchant.id) }));
