import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { createSubMerchant } from '../../../shared/people/merchants.service.ts';

export const handler = route(peopleRoutes.createMerchant, async ({ principal, body }) => ({
  status: 201,
  body: await createSubMerchant(principal.merchantId, body),
}));
