import * as merchantRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { revokeApiKey } from '../../../shared/people/api-keys.service.ts';

export const handler = route(merchantRoutes.revokeApiKey, async ({ merchant, params }) => {
  await revokeApiKey(merchant.id, params.id!);
  return { status: 204 };
});
