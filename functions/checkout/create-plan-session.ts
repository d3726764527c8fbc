import { route } from '../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { checkoutContext } from '../../shared/checkout/checkout.service.ts';
import { createPlanSession } from '../../shared/checkout/checkout-sessions.service.ts';

export const handler = route(checkoutRoutes.createCheckoutPlanSession, async ({ params, body, event }) => ({
  status: 200,
  body: await createPlanSession(params.planId, body, checkoutContext(event.headers)),
}));
