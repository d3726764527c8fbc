import { route } from '../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { checkoutPlan, platformOrigin } from '../../shared/checkout/checkout.service.ts';

export const handler = route(checkoutRoutes.getCheckoutPlan, async ({ params, event }) => ({
  status: 200,
  body: await checkoutPlan(params.planId, platformOrigin(event.headers)),
}));
