import { route } from '../../shared/access/auth-api-key.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { checkoutContext } from '../../shared/checkout/checkout.service.ts';
import { createPlanSession } from '../../shared/checkout/checkout-sessions.service.ts';

export const handler = route(checkoutRoutes.createMerchantCheckoutSession, async ({ merchant, params, body, event }) => ({
  status: 200,
  body: await createPlanSession(params.planId, body, checkoutContext(event.headers), merchant.id),
}));
