/** A merchant's checkout settings page: the checkout's look (with a live preview), the website and the policies. */
import { htmlPage } from '../../platform/http/schemas/common.ts';
import { managers, type RouteDef } from '../../platform/http/route-def.ts';
import { checkoutSettingsFormBody, checkoutSettingsPageQuery } from './checkout-settings.schemas.ts';

export const checkoutSettingsPage = {
  face: 'page',
  name: 'dashboard-checkout-settings',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/checkout-settings',
  handler: 'functions/dashboard/checkout-settings/checkout-settings.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  policyStorage: 'read',
  // `document`: a policy type whose PDF to open (a redirect to a fresh short-lived storage link).
  query: checkoutSettingsPageQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary:
    "A merchant's checkout settings: display name and colours with a live preview, the website, the policy URLs and uploaded policy PDFs (?document=<type> opens one).",
} as const satisfies RouteDef;

export const checkoutSettingsForm = {
  face: 'page',
  name: 'dashboard-checkout-settings-form',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/checkout-settings',
  handler: 'functions/dashboard/checkout-settings/checkout-settings-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  policyStorage: 'write',
  roles: managers,
  body: checkoutSettingsFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary:
    'Save the checkout look, the website or the policy URLs, or delete a policy PDF (owners and admins): back to the page, or the page with what is wrong.',
} as const satisfies RouteDef;
