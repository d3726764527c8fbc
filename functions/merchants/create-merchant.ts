import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { createSubMerchant } from '../../shared/services/merchants.ts';

export const handler = route(routes.createMerchant, async ({ principal, body }) => ({
  status: 201,
  body: await createSubMerchant(principal.merchantId, body),
}));
