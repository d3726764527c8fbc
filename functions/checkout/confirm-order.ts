import { route } from '../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { checkoutContext } from '../../shared/checkout/checkout.service.ts';
import { confirmOrder } from '../../shared/checkout/checkout-confirms.service.ts';

export const handler = route(checkoutRoutes.confirmCheckoutOrder, async ({ params, body, event }) => ({
  status: 200,
  body: await confirmOrder(params.orderId, body, checkoutContext(event.headers)),
}));
