import { route } from '../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { merchantConfig, platformOrigin } from '../../shared/checkout/checkout.service.ts';

export const handler = route(checkoutRoutes.getCheckoutMerchantConfig, async ({ params, event }) => ({
  status: 200,
  body: await merchantConfig(params.merchantId, platformOrigin(event.headers)),
}));
