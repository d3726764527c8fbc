import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { revokeApiKey } from '../../../shared/people/api-keys.service.ts';

export const handler = route(peopleRoutes.revokeApiKey, async ({ merchant, params }) => {
  await revokeApiKey(merchant.id, params.id);
  return { status: 204 };
});
