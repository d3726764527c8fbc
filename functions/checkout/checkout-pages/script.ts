import { checkoutScript } from '../../../shared/checkout/page.script.ts';
import { route } from '../../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';

export const handler = route(checkoutRoutes.checkoutPageScript, () => ({
  status: 200,
  body: checkoutScript,
  headers: { 'cache-control': 'public, max-age=300' },
}));
