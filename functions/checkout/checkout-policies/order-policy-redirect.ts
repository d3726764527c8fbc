import { route } from '../../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';
import { orderPolicyLocation } from '../../../shared/checkout/checkout-policies.service.ts';

export const handler = route(checkoutRoutes.getCheckoutOrderPolicy, async ({ params }) => ({
  status: 302,
  headers: { location: await orderPolicyLocation(params.orderId, params.policyType) },
}));
