import { checkoutPage, checkoutPageHeaders } from '../../../shared/checkout/page.ts';
import { route } from '../../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';

export const handler = route(checkoutRoutes.checkoutPlanPage, () => ({ status: 200, body: checkoutPage, headers: { ...checkoutPageHeaders } }));
