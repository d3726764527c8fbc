import { route } from '../../shared/http/auth-none.ts';
import * as checkoutRoutes from '../../shared/routes/checkout.ts';
import { quotePlanPromoCode } from '../../shared/services/checkout-quotes.ts';

export const handler = route(checkoutRoutes.applyCheckoutPlanPromoCode, async ({ params, body }) => ({
  status: 200,
  body: await quotePlanPromoCode(params.planId!, body),
}));
