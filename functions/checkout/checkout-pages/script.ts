import { checkoutScript } from '../../../shared/checkout/page.script.ts';
import { route } from '../../../shared/access/auth-none.ts';
import * as dashboardRoutes from '../../../shared/checkout/routes.ts';

export const handler = route(dashboardRoutes.checkoutPageScript, () => ({
  status: 200,
  body: checkoutScript,
  headers: { 'cache-control': 'public, max-age=300' },
}));
