import { route } from '../../shared/http/auth-api-key.ts';
import * as merchantRoutes from '../../shared/routes/merchant.ts';
import { checkoutPlan, platformOrigin } from '../../shared/services/checkout.ts';

export const handler = route(merchantRoutes.getMerchantCheckoutPlan, async ({ merchant, params, event }) => ({
  status: 200,
  body: await checkoutPlan(params.planId!, platformOrigin(event.headers), merchant.id),
}));
