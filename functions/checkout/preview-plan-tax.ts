import { route } from '../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { previewPlanTax } from '../../shared/checkout/checkout.service.ts';

export const handler = route(checkoutRoutes.previewCheckoutPlanTax, async ({ params, body }) => ({
  status: 200,
  body: await previewPlanTax(params.planId, body),
}));
