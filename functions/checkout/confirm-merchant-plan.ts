import { route } from '../../shared/http/auth-api-key.ts';
import * as merchantRoutes from '../../shared/routes/merchant.ts';
import { checkoutContext } from '../../shared/services/checkout.ts';
import { confirmPlan } from '../../shared/services/checkout-confirms.ts';

export const handler = route(merchantRoutes.confirmMerchantCheckout, async ({ merchant, params, body, event }) => ({
  status: 200,
  body: await confirmPlan(params.planId!, body, checkoutContext(event.headers), merchant.id),
}));
