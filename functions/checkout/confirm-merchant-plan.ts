import { route } from '../../shared/access/auth-api-key.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { checkoutContext } from '../../shared/checkout/checkout.service.ts';
import { confirmPlan } from '../../shared/checkout/checkout-confirms.service.ts';

export const handler = route(checkoutRoutes.confirmMerchantCheckout, async ({ merchant, params, body, event }) => ({
  status: 200,
  body: await confirmPlan(params.planId, body, checkoutContext(event.headers), merchant.id),
}));
