import { route } from '../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { quotePlanPromoCode } from '../../shared/checkout/checkout-quotes.service.ts';

export const handler = route(checkoutRoutes.applyCheckoutPlanPromoCode, async ({ params, body }) => ({
  status: 200,
  body: await quotePlanPromoCode(params.planId, body),
}));
