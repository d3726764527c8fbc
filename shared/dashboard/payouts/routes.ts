/** A merchant's payouts page: balances, payout methods, requesting a payout and the payout history. */
import * as v from 'valibot';
import { htmlPage } from '../../platform/http/schemas/common.ts';
import { managers, type RouteDef } from '../../platform/http/route-def.ts';
import { formText, pageForm } from '../pages.schemas.ts';

export const payoutsPage = {
  face: 'page',
  name: 'dashboard-payouts',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/payouts',
  handler: 'functions/dashboard/payouts/payouts.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: v.object({ done: formText(40), page: formText(9) }),
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
  body: pageForm({
    action: v.picklist(['add_method', 'request_payout']),
    holder_name: formText(200),
    country: formText(10),
    currency: formText(10),
    account_number: formText(60),
    routing_number: formText(40),
    amount: formText(30),
    payout_method_id: formText(60),
    idempotency_key: formText(300),
  }),
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary:
    'Add a payout method or request a payout (owners and admins; a payout request carries the idempotency key its form was shown with): back to the payouts page, or the page with what is wrong.',
} as const satisfies RouteDef;
