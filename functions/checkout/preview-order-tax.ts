import { route } from '../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { previewOrderTax } from '../../shared/checkout/checkout.service.ts';

export const handler = route(checkoutRoutes.previewCheckoutOrderTax, async ({ params, body }) => ({
  status: 200,
  body: await previewOrderTax(params.orderId, body),
}));
