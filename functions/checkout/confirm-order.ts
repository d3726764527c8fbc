import { route } from '../../shared/http/auth-none.ts';
import * as checkoutRoutes from '../../shared/routes/checkout.ts';
import { checkoutContext } from '../../shared/services/checkout.ts';
import { confirmOrder } from '../../shared/services/checkout-confirms.ts';

export const handler = route(checkoutRoutes.confirmCheckoutOrder, async ({ params, body, event }) => ({
  status: 200,
  body: await confirmOrder(params.orderId!, body, checkoutContext(event.headers)),
}));
