import { route } from '../../../shared/access/auth-session.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';
import { getCheckoutCustomization } from '../../../shared/checkout/customization.service.ts';

export const handler = route(checkoutRoutes.getCheckoutCustomization, async ({ merchant }) => ({
  status: 200,
  body: await getCheckoutCustomization(merchant.id),
}));
