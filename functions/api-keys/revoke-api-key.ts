import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { revokeApiKey } from '../../shared/services/api-keys.ts';

export const handler = route(routes.revokeApiKey, async ({ merchant, params }) => {
  await revokeApiKey(merchant.id, params.id!);
  return { status: 204 };
});
