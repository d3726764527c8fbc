import { route } from '../../../shared/access/auth-session.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';
import { setCheckoutLogo } from '../../../shared/checkout/customization.service.ts';

export const handler = route(checkoutRoutes.setCheckoutLogo, async ({ merchant, body }) => ({
  status: 200,
  body: await setCheckoutLogo(merchant.id, body),
}));
