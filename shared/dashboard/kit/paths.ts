/** The addresses of a merchant's dashboard pages (no rendering here: a form's function may use them alone). */

/** The areas of a merchant, in the navigation's order: their names are the links' names. */
export const areas = [
  { key: 'home', name: 'Home', path: '' },
  { key: 'payments', name: 'Payments', path: '/payments' },
  { key: 'customers', name: 'Customers', path: '/customers' },
  { key: 'subscriptions', name: 'Subscriptions', path: '/subscriptions' },
  { key: 'invoices', name: 'Invoices', path: '/invoices' },
  { key: 'payouts', name: 'Payouts', path: '/payouts' },
  { key: 'catalog', name: 'Catalog', path: '/catalog' },
  { key: 'checkout', name: 'Checkout settings', path: '/checkout-settings' },
  { key: 'portal', name: 'Customer portal', path: '/portal-settings' },
  { key: 'developers', name: 'Developers', path: '/developers' },
  { key: 'team', name: 'Team', path: '/team' },
  { key: 'partners', name: 'Partners', path: '/partners' },
] as const;

/** A merchant's page address: `/dashboard/merchants/<id><rest>`. */
export const merchantPath = (merchantId: string, rest = '') => `/dashboard/merchants/${merchantId}${rest}`;
