/** The dashboard's pages (the `page` face): server-rendered HTML on the platform's origin, under `/dashboard` and `/join`. */
export * from './access/routes.ts';
export * from './home/routes.ts';
export * from './onboarding/routes.ts';
export * from './payments/routes.ts';
export * from './customers/routes.ts';
export * from './subscriptions/routes.ts';
export * from './invoices/routes.ts';
export * from './payouts/routes.ts';
export * from './catalog/routes.ts';
export * from './checkout-settings/routes.ts';
export * from './checkout-settings/api-routes.ts';
export * from './developers/routes.ts';
export * from './team/routes.ts';
export * from './team/api-routes.ts';
export * from './partners/routes.ts';
