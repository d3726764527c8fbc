import { route } from '../../shared/http/auth-none.ts';
import * as checkoutRoutes from '../../shared/routes/checkout.ts';
import { checkoutContext } from '../../shared/services/checkout.ts';
import { createPlanSession } from '../../shared/services/checkout-sessions.ts';

export const handler = route(checkoutRoutes.createCheckoutPlanSession, async ({ params, body, event }) => ({
  status: 200,
  body: await createPlanSession(params.planId!, body, checkoutContext(event.headers)),
}));
