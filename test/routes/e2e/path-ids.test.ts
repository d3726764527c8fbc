/**
 * Ids in paths, through the local gateway: every path parameter of every route is sent 10,000 characters long,
 * with valid credentials and a valid body. An id the scope check reads gets the scope's 403 (401 for an account
 * secret's account); any other gets the route's `unknownId` answer, at once and never a 500: the very answer
 * (status, code, message) the route gives today for an id that names nothing (`~`, no id of any kind).
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { routesFor, type RouteDef } from '../../../shared/routes/index.ts';
import { pathParametersOf } from '../../../shared/platform/http/path-bounds.ts';
import { csrfTokenOf, PORTAL_SESSION_COOKIE, SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { http, type HttpAnswer } from '../../support/http.ts';
import { scopeParameters } from '../../support/route-ids.ts';
import { call, organizationAccount, orgCall, orgPath, orgProduct, PASSWORD, portalSession, rootMerchant } from '../../support/fixtures.ts';

const LONG = 'x'.repeat(10_000);
/** Names nothing: no id of any kind has a `~`. */
const UNKNOWN = '~';

const uuidV7 = '01931b2e-7c4d-7e61-9f0a-0123456789ab';
const cardToken = `tok_${'A'.repeat(24)}`;
const billingAddress = { country: 'DE' };

/**
 * A valid body of each route that takes one and has an id in its path (an invalid one would be its 400 first); a
 * dashboard page's form is sent as a form, with its CSRF token added.
 */
const bodies: Record<string, unknown> = {
  'accounts-change-secret': { newSecret: 'n'.repeat(64) },
  'merchant-checkout-plans-session': { email: 'buyer@example.com', billingAddress },
  'merchant-checkout-plans-promo-codes': { code: 'SAVE10' },
  'merchant-checkout-plans-confirm': { sessionId: `cs_${'0'.repeat(32)}`, token: cardToken },
  'merchant-payouts-advance': { to: 'paid' },
  'organizations-account-owner-set': { isOwner: false },
  'websites-update': { name: 'Renamed' },
  'products-update': { product: { name: 'Renamed' } },
  'plans-update': { name: 'Renamed' },
  'promo-codes-update': { isActive: false },
  'checkout-policies-upload': { size: 1000 },
  'dashboard-checkout-policies-upload': { contentType: 'application/pdf', size: 1000 },
  'merchant-product-image-uploads-create': { contentType: 'image/png', sizeBytes: 1000 },
  'payment-instruments-attach': { token: cardToken },
  'payment-instruments-update': { useAsBackup: true },
  'customers-update': { email: 'renamed@example.com' },
  'customer-invoices-issue': { issuedAt: '2030-01-01T00:00:00Z', dueAt: '2030-01-31T00:00:00Z' },
  'refunds-create': {},
  'refunds-simulate-processor': {},
  'disputes-create': { transactionId: uuidV7, currency: 'USD', amount: 1 },
  'org-webhook-destinations-update': { auth: null },
  'checkout-plans-tax': { billingAddress },
  'checkout-plans-session': { email: 'buyer@example.com', billingAddress },
  'checkout-plans-promo-codes': { code: 'SAVE10' },
  'checkout-plans-confirm': { sessionId: `cs_${'0'.repeat(32)}`, token: cardToken },
  'checkout-orders-tax': { billingAddress },
  'checkout-orders-confirm': { email: 'buyer@example.com', token: cardToken, billingAddress },
  'members-update': { role: 'admin' },
  'dashboard-refunds-create': {},
  'dashboard-payment-refund': { action: 'review' },
  'dashboard-subscription-cancel': { action: 'cancel_now' },
  'dashboard-subscription-pause': { action: 'pause' },
  'dashboard-developers-webhook-form': { action: 'test' },
  'portal-link-open': { open: 'portal' },
  'portal-sign-in': { email: 'path-ids@example.com' },
  'portal-subscription-cancel': { action: 'cancel' },
  'portal-subscription-pause': { action: 'pause' },
  'subscriptions-update-items': { items: [{ plan: `plan_${'0'.repeat(32)}` }] },
};

let org: Awaited<ReturnType<typeof organizationAccount>>;
/** A merchant with its owner signed in, for the dashboard's routes. */
let shop: { merchantId: string; session: string };
/** A customer of the organization signed in to its portal, for the portal's pages. */
let portal: string;

beforeAll(async () => {
  org = await organizationAccount('Path ids');
  const owner = await rootMerchant('Path ids shop');
  const signedIn = await call('POST', '/v1/dashboard/sessions', { body: { email: owner.ownerEmail, password: PASSWORD } });
  shop = { merchantId: owner.merchantId, session: signedIn.json.token };
  const customer = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, { fullKey: org.fullKey, body: { email: 'path-ids@example.com' } });
  portal = await portalSession(org, customer.json.data.id);
});

/** `route` with `value` as its parameter `name`, the calling merchant, organization or account for its scope ids. */
function send(route: RouteDef, name: string, value: string): Promise<HttpAnswer> {
  const scope = scopeParameters(route);
  const path = route.path.replace(/\{([^}+]+)\}/g, (_, param: string) => {
    if (param === name) return value;
    if (!scope.includes(param)) return UNKNOWN;
    if (param === 'merchantId') return route.auth === 'session' ? shop.merchantId : org.organizationId;
    return param === 'organizationId' ? org.organizationId : org.accountId;
  });
  if (route.face === 'page') return sendPage(route, path);
  const headers: Record<string, string> =
    {
      apiKey: { authorization: `Bearer ${org.merchantApiKey}` },
      orgApiKey: { authorization: `ApiKey ${org.fullKey}` },
      session: { authorization: `Bearer ${shop.session}` },
    }[route.auth as string] ?? {};
  const body = route.auth === 'accountSecret' ? { secret: org.secret, ...(bodies[route.name] as object) } : route.body ? (bodies[route.name] ?? {}) : undefined;
  // The hosted checkout pages are served beside the API, not under /api.
  const api = route.path.startsWith('/api/');
  return http(route.method, api ? path.slice('/api'.length) : path, { headers, body, ...(api ? {} : { baseUrl: new URL(inject('baseUrl')).origin }) });
}

/**
 * A page, as a browser signed in asks for it (a form: from this origin, with its token): a dashboard page as the
 * shop's owner, a portal page as the organization's customer.
 */
function sendPage(route: RouteDef, path: string): Promise<HttpAnswer> {
  const origin = new URL(inject('baseUrl')).origin;
  const onPortal = route.auth === 'portalSession';
  const form: Record<string, string> = route.method === 'GET' ? {} : { origin, 'content-type': 'application/x-www-form-urlencoded' };
  const csrf = onPortal ? csrfTokenOf(portal, 'portal') : csrfTokenOf(shop.session);
  const fields = { ...(bodies[route.name] as Record<string, string> | undefined), csrf_token: csrf };
  const body = route.method === 'GET' ? undefined : new URLSearchParams(fields).toString();
  const cookie = onPortal ? `${PORTAL_SESSION_COOKIE}=${portal}` : `${SESSION_COOKIE}=${shop.session}`;
  return http(route.method, path, { baseUrl: origin, headers: { cookie, ...form }, body });
}

/** An error page's status, the code of a JSON error (a page has none) and the reason either gives. */
const errorOf = (answer: HttpAnswer) => ({
  status: answer.status,
  code: answer.json ? (answer.json.code ?? answer.json.errorCode) : undefined,
  message: answer.json
    ? answer.json.message
    : /<\/h1>\n<p[^>]*>([^<]*)<\/p>/
        .exec(answer.text)?.[1]
        ?.replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'"),
});

const cases = routesFor('sandbox').flatMap((route) => pathParametersOf(route.path).map((name) => ({ route, name, label: `${route.name} {${name}}` })));

describe('a 10,000-character id in a path', () => {
  it('is on every route with a path parameter', () => {
    expect(cases.length).toBeGreaterThan(150);
  });

  it.each(cases)("$label: the scope's refusal or the route's answer to an unknown id, never a 5xx", async ({ route, name }) => {
    const long = await send(route, name, LONG);
    if (scopeParameters(route).includes(name)) {
      expect(errorOf(long)).toMatchObject({ status: route.auth === 'accountSecret' ? 401 : 403 });
      return;
    }
    const declared = route.unknownId!(name);
    expect(errorOf(long)).toEqual({ status: declared.status, code: route.face === 'page' ? undefined : declared.code, message: declared.message });
    // A route that reads its ids answers an unknown one the same way (the hosted checkout pages read none: any
    // short id gets the page, whose script asks the API); one that answers each id its own way, with the other ids
    // naming something (below).
    if (route.table !== 'none' && new Set(pathParametersOf(route.path).map((n) => route.unknownId!(n).code)).size === 1)
      expect(errorOf(await send(route, name, UNKNOWN))).toEqual(errorOf(long));
  });

  it('is answered, on a route with two ids of its own, as that id naming nothing is, the other one naming something', async () => {
    const product = await orgProduct(org);
    const upload = `upl_${'0'.repeat(32)}`;
    const pairs: Array<[path: string, longer: string, headers?: Record<string, string>]> = [
      [`/v1/checkout/plans/plan_${'0'.repeat(32)}/policies/terms`, `/v1/checkout/plans/plan_${'0'.repeat(33)}/policies/terms`],
      [`/v1/checkout/orders/ord_${'0'.repeat(32)}/policies/terms`, `/v1/checkout/orders/ord_${'0'.repeat(33)}/policies/terms`],
      [
        `/v1/public-api/merchants/${org.organizationId}/products/${product.id}/images/uploads/${upload}/confirm`,
        `/v1/public-api/merchants/${org.organizationId}/products/${product.id}/images/uploads/${upload}0/confirm`,
        { authorization: `Bearer ${org.merchantApiKey}` },
      ],
    ];
    for (const [path, longer, headers] of pairs) {
      const method = path.endsWith('/confirm') ? 'POST' : 'GET';
      const unknown = errorOf(await http(method, path, { headers }));
      expect(unknown.status, path).toBe(404);
      expect(errorOf(await http(method, longer, { headers })), longer).toEqual(unknown);
    }
  });

  it("is bounded after the body is read, as an unknown id is: a bad body is still the body's 400", async () => {
    const path = `/v1/public-api/organizations/${org.organizationId}/customer-invoices/${LONG}/issue`;
    const res = await http('POST', path, { headers: { authorization: `ApiKey ${org.fullKey}` }, body: { issuedAt: 'yesterday' } });
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('request.validation_failed');
  });
});
