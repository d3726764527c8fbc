import { route } from '../../shared/http/auth-api-key.ts';
import * as merchantRoutes from '../../shared/routes/merchant.ts';
import { checkoutContext } from '../../shared/services/checkout.ts';
import { createPlanSession } from '../../shared/services/checkout-sessions.ts';

export const handler = route(merchantRoutes.createMerchantCheckoutSession, async ({ merchant, params, body, event }) => ({
  status: 200,
  body: await createPlanSession(params.planId!, body, checkoutContext(event.headers), merchant.id),
}));
