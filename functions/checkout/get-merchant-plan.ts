import { route } from '../../shared/access/auth-api-key.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { checkoutPlan, platformOrigin } from '../../shared/checkout/checkout.service.ts';

export const handler = route(checkoutRoutes.getMerchantCheckoutPlan, async ({ merchant, params, event }) => ({
  status: 200,
  body: await checkoutPlan(params.planId, platformOrigin(event.headers), merchant.id),
}));
