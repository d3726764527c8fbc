import { route } from '../../shared/http/auth-none.ts';
import * as checkoutRoutes from '../../shared/routes/checkout.ts';
import { checkoutContext } from '../../shared/services/checkout.ts';
import { confirmPlan } from '../../shared/services/checkout-confirms.ts';

export const handler = route(checkoutRoutes.confirmCheckoutPlan, async ({ params, body, event }) => ({
  status: 200,
  body: await confirmPlan(params.planId!, body, checkoutContext(event.headers)),
}));
