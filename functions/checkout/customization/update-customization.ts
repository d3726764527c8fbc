import { route } from '../../../shared/access/auth-session.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';
import { updateCheckoutCustomization } from '../../../shared/checkout/customization.service.ts';

export const handler = route(checkoutRoutes.updateCheckoutCustomization, async ({ merchant, body }) => ({
  status: 200,
  body: await updateCheckoutCustomization(merchant.id, body),
}));
