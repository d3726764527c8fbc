/** The dashboard's pages (the `page` face): server-rendered HTML on the platform's origin, under `/dashboard` and `/join`. */
import * as access from '../dashboard/access/routes.ts';
import * as catalog from '../dashboard/catalog/routes.ts';
import * as checkoutSettings from '../dashboard/checkout-settings/routes.ts';
import * as customers from '../dashboard/customers/routes.ts';
import * as developers from '../dashboard/developers/routes.ts';
import * as home from '../dashboard/home/routes.ts';
import * as invoices from '../dashboard/invoices/routes.ts';
import * as onboarding from '../dashboard/onboarding/routes.ts';
import * as partners from '../dashboard/partners/routes.ts';
import * as payments from '../dashboard/payments/routes.ts';
import * as payouts from '../dashboard/payouts/routes.ts';
import * as subscriptions from '../dashboard/subscriptions/routes.ts';
import * as team from '../dashboard/team/routes.ts';

export const pageRoutes = {
  ...access,
  ...home,
  ...onboarding,
  ...payments,
  ...customers,
  ...subscriptions,
  ...invoices,
  ...payouts,
  ...catalog,
  ...checkoutSettings,
  ...developers,
  ...team,
  ...partners,
};
