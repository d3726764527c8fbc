/** The dashboard's pages (the `page` face): server-rendered HTML on the platform's origin, under `/dashboard` and `/join`. */
import * as access from '../dashboard/access/routes.ts';
import * as home from '../dashboard/home/routes.ts';
import * as payouts from '../dashboard/payouts/routes.ts';
import * as checkoutSettings from '../dashboard/checkout-settings/routes.ts';

export const pageRoutes = {
  ...access,
  ...home,
  ...payouts,
  ...checkoutSettings,
};
