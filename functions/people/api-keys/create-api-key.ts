import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { createApiKey } from '../../../shared/people/api-keys.service.ts';

export const handler = route(peopleRoutes.createApiKey, async ({ merchant, body, principal }) => ({
  status: 201,
  body: await createApiKey(merchant.id, body.name, principal.maker),
}));
