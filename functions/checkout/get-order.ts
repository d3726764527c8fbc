import { route } from '../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { checkoutContext, checkoutOrder } from '../../shared/checkout/checkout.service.ts';

export const handler = route(checkoutRoutes.getCheckoutOrder, async ({ params, event }) => ({
  status: 200,
  body: await checkoutOrder(params.orderId, checkoutContext(event.headers)),
}));
