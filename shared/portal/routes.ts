/**
 * The customer portal's routes: the links a merchant makes (organization and merchant APIs), its portal rules
 * (organization API), and the portal's pages (`/portal/<merchantId>/…`: signed out, a link's page, and the pages of
 * a customer's session).
 */
import { customerNotFound, merchantInvoiceNotFound, portalLinkInvalid, portalNotFound, subscriptionNotFound } from '../domain/unknown-ids.ts';
import { managers, type RouteDef } from '../platform/http/route-def.ts';
import { htmlPage, linkQuery, textAsset } from '../platform/http/schemas/common.ts';
import { PORTAL_SCRIPT } from '../platform/http/browser-scripts.ts';
import {
  createPortalSessionRequest,
  portalCancelForm,
  portalPauseForm,
  portalReactivateForm,
  dashboardPortalLinkForm,
  dashboardPortalSettingsForm,
  portalDoneQuery,
  portalInvoicesQuery,
  portalOpenForm,
  portalPaymentMethodForm,
  portalSessionResponse,
  portalSettingsResponse,
  portalSignInForm,
  portalSignOutForm,
  updatePortalSettingsRequest,
} from './portal.schemas.ts';

export const createPortalSession = {
  face: 'organization',
  name: 'portal-sessions-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/customers/{customerId}/portal-sessions',
  handler: 'functions/portal/create-portal-session.ts',
  auth: 'orgApiKey',
  group: 'portal',
  table: 'readWrite',
  body: createPortalSessionRequest,
  status: 201,
  response: portalSessionResponse,
  unknownId: customerNotFound,
  summary:
    "Make a link that opens the customer portal once, signed in as this customer (valid for an hour): send the buyer to `url`. `returnUrl` is where the portal's back link leads.",
} as const satisfies RouteDef;

export const createMerchantPortalSession = {
  face: 'merchant',
  name: 'merchant-portal-sessions-create',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/customers/{id}/portal-sessions',
  handler: 'functions/portal/create-merchant-portal-session.ts',
  auth: 'apiKey',
  group: 'portal',
  table: 'readWrite',
  body: createPortalSessionRequest,
  status: 201,
  response: portalSessionResponse,
  unknownId: customerNotFound,
  summary: "Make a link that opens the customer portal once, signed in as one of the merchant's customers (valid for an hour).",
} as const satisfies RouteDef;

export const getPortalSettings = {
  face: 'organization',
  name: 'portal-settings-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/portal-settings',
  handler: 'functions/portal/get-portal-settings.ts',
  auth: 'orgApiKey',
  group: 'portal',
  table: 'read',
  status: 200,
  response: portalSettingsResponse,
  summary: "The organization's customer portal rules: which actions its customers may take there, and what a cancellation there does.",
} as const satisfies RouteDef;

export const updatePortalSettings = {
  face: 'organization',
  name: 'portal-settings-update',
  method: 'PUT',
  path: '/api/v1/public-api/organizations/{organizationId}/portal-settings',
  handler: 'functions/portal/update-portal-settings.ts',
  auth: 'orgApiKey',
  group: 'portal',
  table: 'readWrite',
  body: updatePortalSettingsRequest,
  status: 200,
  response: portalSettingsResponse,
  summary: 'Change the customer portal rules (a setting left out keeps its value); an action turned off leaves the portal at once.',
} as const satisfies RouteDef;

// The pages.

export const portalEntryPage = {
  face: 'page',
  name: 'portal-entry',
  method: 'GET',
  path: '/portal/{merchantId}',
  handler: 'functions/portal/entry-page.ts',
  auth: 'none',
  group: 'portal',
  table: 'read',
  query: portalDoneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  unknownId: portalNotFound,
  summary: "The merchant's customer portal without a session: how to get in (an ended session is sent here).",
} as const satisfies RouteDef;

export const portalSignIn = {
  face: 'page',
  name: 'portal-sign-in',
  method: 'POST',
  path: '/portal/{merchantId}',
  handler: 'functions/portal/sign-in.ts',
  auth: 'none',
  group: 'portal',
  table: 'readWrite',
  body: portalSignInForm,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  sendsMail: true,
  unknownId: portalNotFound,
  summary:
    'Asks for a sign-in link by e-mail: the same answer, after the same time, whether or not the address is a customer’s (throttled per address and source).',
} as const satisfies RouteDef;

export const portalLinkPage = {
  face: 'page',
  name: 'portal-link',
  method: 'GET',
  path: '/portal/{merchantId}/link/{token}',
  handler: 'functions/portal/link-page.ts',
  auth: 'none',
  group: 'portal',
  table: 'read',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  unknownId: portalLinkInvalid,
  summary: "A portal link's page: one button that opens the portal (the link is spent by the button's post, never by opening the page).",
} as const satisfies RouteDef;

export const portalLinkOpen = {
  face: 'page',
  name: 'portal-link-open',
  method: 'POST',
  path: '/portal/{merchantId}/link/{token}',
  handler: 'functions/portal/link-open.ts',
  auth: 'none',
  group: 'portal',
  table: 'readWrite',
  body: portalOpenForm,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  unknownId: portalLinkInvalid,
  summary: 'Spends a portal link and signs the browser in as its customer (303 to the subscriptions, with the portal session cookie).',
} as const satisfies RouteDef;

export const portalSubscriptionsPage = {
  face: 'page',
  name: 'portal-subscriptions',
  method: 'GET',
  path: '/portal/{merchantId}/subscriptions',
  handler: 'functions/portal/subscriptions-page.ts',
  auth: 'portalSession',
  group: 'portal',
  table: 'read',
  query: portalDoneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "The customer's subscriptions: plan, status, the next charge with its tax, what is scheduled, and the actions the merchant allows.",
} as const satisfies RouteDef;

export const portalSubscriptionCancel = {
  face: 'page',
  name: 'portal-subscription-cancel',
  method: 'POST',
  path: '/portal/{merchantId}/subscriptions/{subscriptionId}/cancel',
  handler: 'functions/portal/subscription-cancel.ts',
  auth: 'portalSession',
  group: 'portal',
  table: 'readWrite',
  body: portalCancelForm,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  buildsInvoices: true,
  redirects: true,
  timeoutSeconds: 20,
  unknownId: subscriptionNotFound,
  summary:
    "Cancel the customer's subscription (with a reason and a comment, at the time the merchant's rules say; the merchant's owner is told by mail), or undo its scheduled cancellation.",
} as const satisfies RouteDef;

export const portalSubscriptionPause = {
  face: 'page',
  name: 'portal-subscription-pause',
  method: 'POST',
  path: '/portal/{merchantId}/subscriptions/{subscriptionId}/pause',
  handler: 'functions/portal/subscription-pause.ts',
  auth: 'portalSession',
  group: 'portal',
  table: 'readWrite',
  body: portalPauseForm,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  buildsInvoices: true,
  redirects: true,
  timeoutSeconds: 20,
  unknownId: subscriptionNotFound,
  summary: "Pause the customer's subscription until they resume it, or resume it, if the merchant's rules allow pauses.",
} as const satisfies RouteDef;

export const portalSubscriptionReactivate = {
  face: 'page',
  name: 'portal-subscription-reactivate',
  method: 'POST',
  path: '/portal/{merchantId}/subscriptions/{subscriptionId}/reactivate',
  handler: 'functions/portal/subscription-reactivate.ts',
  auth: 'portalSession',
  group: 'portal',
  table: 'readWrite',
  body: portalReactivateForm,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  buildsInvoices: true,
  redirects: true,
  timeoutSeconds: 20,
  unknownId: subscriptionNotFound,
  summary: "Reactivate the customer's ended subscription (charged at once on their card), if the merchant's rules allow it.",
} as const satisfies RouteDef;

export const portalInvoicesPage = {
  face: 'page',
  name: 'portal-invoices',
  method: 'GET',
  path: '/portal/{merchantId}/invoices',
  handler: 'functions/portal/invoices-page.ts',
  auth: 'portalSession',
  group: 'portal',
  table: 'read',
  query: portalInvoicesQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "The customer's invoices, newest first, 25 a page (`?page=`), each with its PDF.",
} as const satisfies RouteDef;

export const portalInvoicePdf = {
  face: 'page',
  group: 'portal',
  contentType: 'text/html',
  name: 'portal-invoice-pdf',
  method: 'GET',
  path: '/portal/{merchantId}/invoices/{invoiceId}/pdf',
  handler: 'functions/portal/invoice-pdf.ts',
  auth: 'portalSession',
  table: 'readWrite',
  query: linkQuery,
  invoicePdfStorage: 'read',
  status: 302,
  response: null,
  timeoutSeconds: 15,
  unknownId: merchantInvoiceNotFound,
  summary:
    'One of the customer\'s invoices as a PDF: a redirect (302, `location`) to a five-minute link to its stored PDF (content-disposition: attachment; filename="<number>.pdf").',
} as const satisfies RouteDef;

export const portalPaymentMethodPage = {
  face: 'page',
  name: 'portal-payment-method',
  method: 'GET',
  path: '/portal/{merchantId}/payment-method',
  handler: 'functions/portal/payment-method-page.ts',
  auth: 'portalSession',
  group: 'portal',
  // Each page mints the hosted fields' client token it mounts them with.
  table: 'readWrite',
  query: portalDoneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: 'The card the subscriptions are charged to, and the hosted card fields that replace it.',
} as const satisfies RouteDef;

export const portalPaymentMethodSave = {
  face: 'page',
  name: 'portal-payment-method-save',
  method: 'POST',
  path: '/portal/{merchantId}/payment-method',
  handler: 'functions/portal/payment-method-save.ts',
  auth: 'portalSession',
  group: 'portal',
  table: 'readWrite',
  body: portalPaymentMethodForm,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  buildsInvoices: true,
  redirects: true,
  timeoutSeconds: 20,
  summary: "Saves the hosted fields' card as the customer's card and the instrument of their subscriptions; a past-due one is retried with it at once.",
} as const satisfies RouteDef;

export const portalScript = {
  face: 'page',
  name: 'portal-script',
  method: 'GET',
  path: '/portal/assets/portal.js',
  handler: 'functions/portal/script.ts',
  auth: 'none',
  group: 'portal',
  table: 'none',
  status: 200,
  contentType: 'text/javascript',
  response: textAsset,
  // Bundled ahead from shared/portal/browser/portal.ts (infra/browser-scripts.ts) and read at run time.
  assets: [PORTAL_SCRIPT],
  summary: "The customer portal's script: the hosted card fields of its payment method page.",
} as const satisfies RouteDef;

export const portalSignOut = {
  face: 'page',
  name: 'portal-sign-out',
  method: 'POST',
  path: '/portal/{merchantId}/sign-out',
  handler: 'functions/portal/sign-out.ts',
  auth: 'portalSession',
  group: 'portal',
  table: 'readWrite',
  body: portalSignOutForm,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary: 'Ends the portal session.',
} as const satisfies RouteDef;

// In the merchant's dashboard.

export const dashboardPortalSettingsPage = {
  face: 'page',
  name: 'dashboard-portal-settings',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/portal-settings',
  handler: 'functions/portal/dashboard-settings-page.ts',
  auth: 'session',
  group: 'portal',
  table: 'read',
  query: portalDoneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "The merchant's customer portal settings (owners and admins change them).",
} as const satisfies RouteDef;

export const dashboardPortalSettingsSave = {
  face: 'page',
  name: 'dashboard-portal-settings-save',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/portal-settings',
  handler: 'functions/portal/dashboard-settings-save.ts',
  auth: 'session',
  group: 'portal',
  roles: managers,
  table: 'readWrite',
  body: dashboardPortalSettingsForm,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary: 'Saves the customer portal settings.',
} as const satisfies RouteDef;

export const dashboardPortalLink = {
  face: 'page',
  name: 'dashboard-portal-link',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/customers/{customerId}/portal-link',
  handler: 'functions/portal/dashboard-portal-link.ts',
  auth: 'session',
  group: 'portal',
  roles: managers,
  table: 'readWrite',
  body: dashboardPortalLinkForm,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  unknownId: customerNotFound,
  summary: 'Makes a one-time billing portal link for the customer and shows it once, to send them.',
} as const satisfies RouteDef;
