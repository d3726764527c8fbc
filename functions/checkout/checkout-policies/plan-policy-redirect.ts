import { route } from '../../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';
import { planPolicyLocation } from '../../../shared/checkout/checkout-policies.service.ts';

export const handler = route(checkoutRoutes.getCheckoutPlanPolicy, async ({ params }) => ({
  status: 302,
  headers: { location: await planPolicyLocation(params.planId, params.policyType) },
}));
