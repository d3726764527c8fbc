/** A merchant's payouts page: balances, payout methods, requesting a payout and the payout history. */
import { htmlPage } from '../../platform/http/schemas/common.ts';
import { managers, type RouteDef } from '../../platform/http/route-def.ts';
import { payoutsFormBody, payoutsPageQuery } from './payouts.schemas.ts';

export const payoutsPage = {
  face: 'page',
  name: 'dashboard-payouts',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/payouts',
  handler: 'functions/dashboard/payouts/payouts.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: payoutsPageQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "A merchant's payouts: balances per currency, payout methods, the payout request form and the payout history.",
} as const satisfies RouteDef;

export const payoutsForm = {
  face: 'page',
  name: 'dashboard-payouts-form',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/payouts',
  handler: 'functions/dashboard/payouts/payouts-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  roles: managers,
  body: payoutsFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary:
    'Add a payout method or request a payout (owners and admins; a payout request carries the idempotency key its form was shown with): back to the payouts page, or the page with what is wrong.',
} as const satisfies RouteDef;
