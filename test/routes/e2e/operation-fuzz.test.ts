/**
 * A bounded fuzz of every operation of the route table through the local gateway: every route of the sandbox's main
 * API (`routesFor('sandbox')`: the OAuth forms, `GET /api/v1/oauth/authorize`, the MCP endpoint and the dashboard's
 * pages included) gets
 *
 * 1. a body nested 10,000 deep, whole and in a field, when it takes a body;
 * 2. a 10,000-character string in each field of its documented request (and in an unknown field), in each of
 *    its query parameters (an unknown one when it takes none) and in each of its path parameters;
 * 3. control characters (`\u0000`, `\u001b`, `\u007f`) in a string field, a query parameter and each path parameter;
 * 4. a number too large for a double (`1e999`, which JSON.parse reads as Infinity, and `-1e999`) in each number field
 *    of its documented request, and `1e999` in each of its query parameters documented with a number;
 * 5. numbers a double holds but DynamoDB does not store as given (`9007199254740994`, past 2^53 - 1; `-1e300`; `1e-300`,
 *    nearer zero than 1e-130) in each number field of its request schema, nested and optional ones included;
 * 6. values of the wrong type or shape: `null`, `{}` or `[]` in each field of its request, in turn, in `npm test`; with
 *    `OPERATION_FUZZ_VALUES=all` (`npm run test:deep`), two dozen odd values (booleans, numbers, empty and odd strings, a
 *    lone surrogate, arrays, objects) in every field and value of its valid body, nested ones included, odd whole
 *    bodies, and odd values in each query and path parameter, about 30,000 requests;
 * 7. odd values (a URL whose path is `//`, `%`, `null`, 2,000 characters, …) in the headers the platform reads besides
 *    the credential (`Referer`, `Origin`, `Sec-Fetch-Site`, `If-None-Match`, `Idempotency-Key`, `Mcp-Protocol-Version`,
 *    …): in `npm test` all of them in one request, each a value in turn; under test:deep each header with each value;
 * 8. credentials of other kinds than its own: a merchant key where an organization ApiKey is expected, an organization
 *    key or an agent token where a session is, a session as an ApiKey, a malformed one, …
 *
 * Cases 1–7 carry a valid credential of the route's kind and realistic ids (the fixture's merchant, organization,
 * account, product, plan and customer; the API reference's example ids elsewhere), so they reach validation rather
 * than only the authentication's refusal. What it proves: no answer is a 5xx; every refusal (4xx) is in the error
 * shape of the route's face (`checkContractAt`), a page's refusal is a page (`text/html`), and any success keeps the
 * route's declared contract; a credential of another kind is never taken for a route's own.
 *
 * The requests leave from their own loopback address (127.0.0.2), so the sign-in and account-secret throttles they
 * run into are counted apart from the 127.0.0.1 of every other test file (test/support/loopback-source.ts).
 */
import http from 'node:http';
import * as v from 'valibot';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { exampleIds } from '../../../shared/platform/http/example-ids.ts';
import { apiDocs } from '../../../shared/routes/docs/index.ts';
import { routesFor, type RouteDef } from '../../../shared/routes/index.ts';
import { routeMatcher } from '../../../shared/platform/http/route-match.ts';
import { pathParametersOf } from '../../../shared/platform/http/path-bounds.ts';
import { SIGN_IN_PATH } from '../../../shared/platform/http/page-errors.ts';
import { htmlPage } from '../../../shared/platform/http/schemas/common.ts';
import { csrfTokenOf, OAUTH_SESSION_COOKIE, PORTAL_SESSION_COOKIE, SESSION_COOKIE } from '../../../shared/platform/http/session-cookie.ts';
import { checkContractAt } from '../../support/contract.ts';
import { scopeParameters } from '../../support/route-ids.ts';
import { call, orgCall, orgPath, orgPlan, organizationAccount, PASSWORD, portalSession } from '../../support/fixtures.ts';

const LONG = 'x'.repeat(10_000);
const CONTROL = 'a\u0000b\u001bc\u007fd';
const DEEP = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
/** Number literals past a double's range: JSON.parse reads them as ±Infinity, which is a JavaScript number. */
const OVERFLOWS = ['1e999', '-1e999'] as const;
/** Number literals a double holds exactly or nearly, which DynamoDB does not store as given (past 2^53 - 1, past 1e125, under 1e-130). */
const OUT_OF_STORE = ['9007199254740994', '-1e300', '1e-300'] as const;
/** Values of the wrong type or shape for a field: the few of `npm test`, and the many of `npm run test:deep`. */
const ODD_FEW: Json[] = [null, {}, []];
const ODD_ALL: Json[] = [
  ...ODD_FEW,
  true,
  false,
  0,
  -1,
  0.5,
  '',
  ' ',
  [null],
  ['x'],
  { a: 'b' },
  '\ud800',
  '0',
  '-1',
  '1e3',
  'NaN',
  '2026-02-30T00:00:00Z',
  '../..',
  '%00',
  'ééé',
  '<script>',
  'null',
];
const ODD_TEXTS = ['', '-1', '0', '1.5', 'abc', '2026-13-45', '99999999999999999999', 'true', '[]', '%', 'null', ' '];
const ODD_PATH_PARAMETERS = ['-1', '0', 'null', 'a', '%', 'é', '..', 'x y'];
const ODD_BODIES = ['[]', 'null', '1', '"x"', '{}', ''];
/** Every odd value (`OPERATION_FUZZ_VALUES=all`, as `npm run test:deep` sets), or the few. */
const ALL_ODD_VALUES = process.env.OPERATION_FUZZ_VALUES === 'all';
/** The request headers the platform reads, besides the credential and the body's type. */
const READ_HEADERS = [
  'referer',
  'origin',
  'sec-fetch-site',
  'if-none-match',
  'idempotency-key',
  'mcp-protocol-version',
  'x-hosted-fields-origin',
  'x-forwarded-proto',
];
/** How many requests are in flight at once. */
const CONCURRENCY = 8;
/** The fuzz's own source address (see the top comment). */
const FUZZ_ADDRESS = '127.0.0.2';

const base = new URL(inject('baseUrl'));
const origin = base.origin;
/**
 * Odd values of a header: a URL of this origin whose path is `//` (a host left empty) and that path alone, a lone `%`,
 * `null`, a wildcard, a Latin-1 letter, 2,000 characters, an unclosed IPv6 address, a space.
 */
const ODD_HEADERS = [`${origin}//`, '//', '%', 'null', '*', 'é', 'x'.repeat(2_000), 'http://[::1', ' '];

/** Every operation of the sandbox's main API. The tokenization host's routes exist on live only, on another API: not on this gateway. */
const operations = routesFor('sandbox');

type Case = 'deep' | 'long' | 'control' | 'overflow' | 'range' | 'type' | 'header' | 'credential';

interface Probe {
  readonly kind: Case;
  /** What was changed, for the report. */
  readonly label: string;
  readonly route: RouteDef;
  /** From the origin's root, with its query. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly headers: { get(name: string): string | null };
  readonly text: string;
  readonly json: unknown;
}

interface Fixture {
  secret: string;
  merchantKey: string;
  orgKey: string;
  session: string;
  /** A second session of the same person, for the routes that end the session they are sent with. */
  spareSession: string;
  agentToken: string;
  clientToken: string;
  /** Two customer portal sessions of the fixture's customer (the second for signing out). */
  portalSession: string;
  sparePortalSession: string;
  /** The fixture's records, by the path parameter that names them. */
  ids: Record<string, string>;
}

let fx: Fixture;

beforeAll(async () => {
  const org = await organizationAccount('Fuzz');
  const signedIn = await call('POST', '/v1/dashboard/sessions', { body: { email: org.ownerEmail, password: PASSWORD } });
  expect(signedIn.status, signedIn.text).toBe(201);
  const session = signedIn.json.token as string;
  const spare = await call('POST', '/v1/dashboard/sessions', { body: { email: org.ownerEmail, password: PASSWORD } });
  expect(spare.status, spare.text).toBe(201);
  const minted = await call('POST', `/v1/dashboard/merchants/${org.organizationId}/mcp-tokens`, {
    key: session,
    body: { name: 'fuzz', scopes: ['merchant:read', 'product:read', 'product:create'] },
  });
  expect(minted.status, minted.text).toBe(201);
  const clientToken = await orgCall('POST', `${orgPath(org.organizationId)}/payment-instruments/client-tokens`, {
    fullKey: org.fullKey,
    body: { allowedOrigin: 'https://shop.example' },
  });
  expect(clientToken.status, clientToken.text).toBe(201);
  const plan = await orgPlan(org);
  const customer = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, {
    fullKey: org.fullKey,
    body: { email: 'fuzz-buyer@example.com', firstName: 'Fuzz', lastName: 'Buyer' },
  });
  expect(customer.status, customer.text).toBe(201);
  const [portal, sparePortal] = await Promise.all([portalSession(org, customer.json.data.id), portalSession(org, customer.json.data.id)]);
  fx = {
    secret: org.secret,
    merchantKey: org.merchantApiKey,
    orgKey: org.fullKey,
    session,
    spareSession: spare.json.token as string,
    agentToken: minted.json.token,
    clientToken: clientToken.json.data.clientToken as string,
    portalSession: portal,
    sparePortalSession: sparePortal,
    ids: {
      merchantId: org.organizationId,
      organizationId: org.organizationId,
      accountId: org.accountId,
      productId: plan.productId as string,
      planId: plan.id,
      customerId: customer.json.data.id as string,
    },
  };
}, 60_000);

// ---------------------------------------------------------------------------------------------------------------
// What a valid request of each route looks like

/** A realistic value for a path parameter the fixture has no record for (the API reference's example ids). */
const exampleIdOf: Record<string, string> = {
  userId: exampleIds.teamMemberUserId,
  apiKeyId: exampleIds.orgApiKeyId,
  transactionId: exampleIds.transactionId,
  subscriptionId: exampleIds.subscriptionId,
  subscriptionCancellationId: exampleIds.subscriptionCancellationId,
  subscriptionPauseId: exampleIds.subscriptionPauseId,
  subscriptionReactivationId: exampleIds.subscriptionReactivationId,
  id: exampleIds.merchantWebhookDestinationId,
  promoCodeId: exampleIds.promoCodeId,
  websiteId: exampleIds.websiteId,
  orderId: exampleIds.orderId,
  customerInvoiceId: exampleIds.customerInvoiceId,
  invoiceId: exampleIds.issuedInvoiceId,
  paymentInstrumentId: exampleIds.paymentInstrumentId,
  tokenId: exampleIds.tokenId,
  payoutMethodId: exampleIds.payoutMethodIdToDelete,
  withdrawalId: exampleIds.withdrawalId,
  eventId: exampleIds.eventId,
  webhookDestinationId: exampleIds.webhookDestinationId,
  disputeId: exampleIds.disputeId,
  receiptId: exampleIds.planReceiptId,
  policyType: 'terms',
  imageId: exampleIds.productImageId,
  uploadId: exampleIds.imageUploadId,
  token: exampleIds.joinLinkToken,
  mcpTokenId: exampleIds.mcpTokenIdToDelete,
  page: 'quickstart',
};

/** A route that destroys what its path names (a DELETE, a key's rotation). */
const destroys = (route: RouteDef) => route.method === 'DELETE' || route.path.endsWith('/rotate');

/**
 * The value of a path parameter in a valid request: the fixture's merchant, organization or account for the ids the
 * scope check reads, the fixture's record where it has one (but on a destroying route, so that a request that got
 * through would not take the fixture's product away), else the API reference's example id.
 */
function paramValue(route: RouteDef, name: string): string {
  if (scopeParameters(route).includes(name) || (!destroys(route) && fx.ids[name])) return fx.ids[name] ?? exampleIdOf[name]!;
  return apiDocs.operations[route.name]?.example.params?.[name] ?? exampleIdOf[name] ?? exampleIds.transactionId;
}

/** The top-level field names of a valibot object schema (through pipes, optionals and unions). */
function fieldsOf(schema: unknown): string[] {
  const s = schema as { entries?: Record<string, unknown>; options?: unknown[]; wrapped?: unknown } | undefined;
  if (s?.entries) return Object.keys(s.entries);
  if (s?.options) return [...new Set(s.options.flatMap(fieldsOf))];
  if (s?.wrapped) return fieldsOf(s.wrapped);
  return [];
}

const isForm = (route: RouteDef) => route.bodyType === 'application/x-www-form-urlencoded';
const isPage = (route: RouteDef) => route.face === 'page';
/** The MCP endpoint reads its JSON-RPC body itself (its route declares no body schema). */
const isMcp = (route: RouteDef) => route.name === 'mcp';
const takesBody = (route: RouteDef) => Boolean(route.body) || isMcp(route);
/** Signing out ends the session a request is sent with: those routes get a session of their own. */
const sessionFor = (route: RouteDef) => (route.name === 'dashboard-sign-out' || route.name === 'sessions-delete' ? fx.spareSession : fx.session);
const portalSessionFor = (route: RouteDef) => (route.name === 'portal-sign-out' ? fx.sparePortalSession : fx.portalSession);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A tool call that creates a product: a write an agent with the fixture's scopes may make. */
const mcpCall: Json = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_product', arguments: { name: 'Fuzz product' } } };

/** The route's valid body (its documented example, the fixture's account secret for an account's routes; a page's form: its CSRF token). */
function baseBody(route: RouteDef): Record<string, Json> {
  if (isMcp(route)) return structuredClone(mcpCall) as Record<string, Json>;
  if (isPage(route)) {
    const csrf = route.auth === 'portalSession' ? csrfTokenOf(portalSessionFor(route), 'portal') : csrfTokenOf(sessionFor(route));
    const examples: Record<string, Record<string, Json>> = {
      'portal-link-open': { open: 'portal' },
      'portal-subscription-cancel': { action: 'cancel' },
      'portal-subscription-pause': { action: 'pause' },
    };
    const example = examples[route.name] ?? {};
    return { csrf_token: csrf, ...example };
  }
  const example = structuredClone((apiDocs.operations[route.name]?.example.body ?? {}) as Record<string, Json>);
  if (route.auth === 'accountSecret') example.secret = fx.secret;
  return example;
}

const baseQuery = (route: RouteDef): Record<string, string> => ({ ...apiDocs.operations[route.name]?.example.query });

/** The documented headers but its credential (the fixture's are added). */
function exampleHeaders(route: RouteDef): Record<string, string> {
  const headers = Object.entries(apiDocs.operations[route.name]?.example.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'authorization');
  return Object.fromEntries(headers.map(([name, value]) => [name.toLowerCase(), value]));
}

/** The headers of a valid credential of the route's kind. */
function ownCredential(route: RouteDef): Record<string, string> {
  if (isPage(route) && route.auth === 'portalSession') return { cookie: `${PORTAL_SESSION_COOKIE}=${portalSessionFor(route)}` };
  if (isPage(route)) return route.auth === 'session' ? { cookie: `${SESSION_COOKIE}=${sessionFor(route)}` } : {};
  switch (route.auth) {
    case 'apiKey':
      return { authorization: `Bearer ${fx.merchantKey}` };
    case 'orgApiKey':
      return { authorization: `ApiKey ${fx.orgKey}` };
    case 'session':
      return { authorization: `Bearer ${sessionFor(route)}` };
    case 'clientToken':
      return { authorization: `Bearer ${fx.clientToken}` };
    case 'agentToken':
      return { authorization: `Bearer ${fx.agentToken}` };
    default:
      return {};
  }
}

interface Request {
  readonly params?: Record<string, string>;
  readonly query?: Record<string, string>;
  readonly body?: Record<string, Json> | string;
  /** Replaces the credential of the route's kind. */
  readonly credential?: Record<string, string>;
  /** Headers sent besides (last, over the request's own). */
  readonly headers?: Record<string, string>;
}

/** A probe of `route`: its valid request, with what `change` replaces. */
function probe(kind: Case, label: string, route: RouteDef, change: Request = {}): Probe {
  const path = route.path.replace(/\{([^}+]+)\}/g, (_, name: string) => encodeURIComponent(change.params?.[name] ?? paramValue(route, name)));
  const query = new URLSearchParams(change.query ?? baseQuery(route)).toString();
  const headers: Record<string, string> = { ...exampleHeaders(route), ...(change.credential ?? ownCredential(route)) };
  let body: string | undefined;
  if (takesBody(route)) {
    const value = change.body ?? baseBody(route);
    if (typeof value === 'string') {
      body = value;
      headers['content-type'] = 'application/json';
    } else if (isForm(route)) {
      body = new URLSearchParams(Object.entries(value).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else {
      body = JSON.stringify(value);
      headers['content-type'] = 'application/json';
    }
    if (isMcp(route)) headers.accept = 'application/json, text/event-stream';
    // A page's form comes from the dashboard's own origin, as a browser posts it.
    if (isPage(route) || isForm(route)) headers.origin = origin;
  }
  Object.assign(headers, change.headers);
  return { kind, label, route, path: query ? `${path}?${query}` : path, headers, body };
}

// ---------------------------------------------------------------------------------------------------------------
// The cases

/** The paths (keys from the top) of every value in `value` that `keep` takes, nested ones included (never the top). */
function pathsOf(value: Json, keep: (inner: Json) => boolean, at: string[] = []): string[][] {
  const here = at.length && keep(value) ? [at] : [];
  if (value === null || typeof value !== 'object') return here;
  return [...here, ...Object.entries(value).flatMap(([key, inner]) => pathsOf(inner, keep, [...at, key]))];
}

const stringPaths = (value: Json) => pathsOf(value, (inner) => typeof inner === 'string');
const numberPaths = (value: Json) => pathsOf(value, (inner) => typeof inner === 'number');
/** Every value's path: objects and arrays too, and what is in them. */
const valuePaths = (value: Json) => pathsOf(value, () => true);

/** Each of `paths` once, in the order first met. */
const uniquePaths = (paths: string[][]): string[][] => [...new Set(paths.map((path) => JSON.stringify(path)))].map((path) => JSON.parse(path) as string[]);

/** `value` with `replacement` at `path`, making the objects (and arrays, before an index) on the way. */
function replaced(value: Record<string, Json>, path: string[], replacement: Json): Record<string, Json> {
  const copy = structuredClone(value);
  let node = copy as Record<string, Json>;
  path.slice(0, -1).forEach((key, i) => {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = /^\d+$/.test(path[i + 1]!) ? [] : {};
    node = node[key] as Record<string, Json>;
  });
  node[path.at(-1)!] = replacement;
  return copy;
}

/** The body's fields: every string of its valid body, and the schema's other top-level fields (left out, or not strings). */
function bodyFields(route: RouteDef): string[][] {
  const body = baseBody(route);
  const paths = stringPaths(body);
  const named = new Set(paths.map((p) => p[0]));
  const others = [...new Set([...Object.keys(body), ...fieldsOf(route.body)])].filter((name) => !named.has(name));
  return [...paths, ...others.map((name) => [name])];
}

/** The query parameters to fill: the declared ones, or an unknown one for a route that takes none. */
function queryFields(route: RouteDef): string[] {
  const names = [...new Set([...Object.keys(baseQuery(route)), ...fieldsOf(route.query)])];
  return names.length ? names : ['fuzz'];
}

/**
 * The field a deep value or control characters go in: the tool's argument on the MCP endpoint, else the body's first
 * string field but the credential and CSRF token (which would only be refused as such).
 */
function primaryField(route: RouteDef): string[] {
  if (isMcp(route)) return ['params', 'arguments', 'name'];
  const fields = bodyFields(route);
  return fields.find((path) => path[0] !== 'secret' && path[0] !== 'csrf_token') ?? fields[0] ?? ['fuzz'];
}

function deepProbes(route: RouteDef): Probe[] {
  if (!takesBody(route)) return [];
  const field = primaryField(route);
  // A form's fields are strings: there the field holds the deep JSON's text (and the whole body is that JSON, of the wrong media type).
  const inField = isForm(route) ? replaced(baseBody(route), field, DEEP) : JSON.stringify(replaced(baseBody(route), field, '@')).replace('"@"', DEEP);
  return [probe('deep', 'body nested 10,000 deep', route, { body: DEEP }), probe('deep', `${field.join('.')} nested 10,000 deep`, route, { body: inField })];
}

function longProbes(route: RouteDef): Probe[] {
  const body = takesBody(route)
    ? [...bodyFields(route), ['fuzz']].map((path) =>
        probe('long', `body ${path.join('.')}: 10,000 characters`, route, { body: replaced(baseBody(route), path, LONG) }),
      )
    : [];
  const query = queryFields(route).map((name) => probe('long', `query ${name}: 10,000 characters`, route, { query: { ...baseQuery(route), [name]: LONG } }));
  const params = pathParametersOf(route.path).map((name) => probe('long', `path {${name}}: 10,000 characters`, route, { params: { [name]: LONG } }));
  return [...body, ...query, ...params];
}

function controlProbes(route: RouteDef): Probe[] {
  const field = primaryField(route);
  const body = takesBody(route)
    ? [probe('control', `body ${field.join('.')}: control characters`, route, { body: replaced(baseBody(route), field, CONTROL) })]
    : [];
  const [name] = queryFields(route);
  const query = [probe('control', `query ${name}: control characters`, route, { query: { ...baseQuery(route), [name!]: CONTROL } })];
  const params = pathParametersOf(route.path).map((param) => probe('control', `path {${param}}: control characters`, route, { params: { [param]: CONTROL } }));
  return [...body, ...query, ...params];
}

function overflowProbes(route: RouteDef): Probe[] {
  // A form's fields are strings, whose own checks the long and control cases reach.
  const body =
    takesBody(route) && !isForm(route) && !isPage(route)
      ? numberPaths(baseBody(route)).flatMap((path) =>
          OVERFLOWS.map((literal) =>
            probe('overflow', `body ${path.join('.')}: ${literal}`, route, {
              body: JSON.stringify(replaced(baseBody(route), path, '@')).replace('"@"', literal),
            }),
          ),
        )
      : [];
  // A query parameter is text: a number's place is one whose documented example is a number, but a search (it may
  // look for `4242`, or `1e999`).
  const numeric = Object.entries(baseQuery(route)).filter(([name, value]) => name !== 'search' && /^-?\d+(\.\d+)?$/.test(value));
  const query = numeric.map(([name]) => probe('overflow', `query ${name}: 1e999`, route, { query: { ...baseQuery(route), [name]: '1e999' } }));
  return [...body, ...query];
}

/**
 * The paths of every number field of a valibot schema, nested and optional ones included (an array's item as its first
 * element); a record's values are left out (their keys are free).
 */
function numberFieldsOf(schema: unknown, at: string[] = []): string[][] {
  const s = schema as { type?: string; entries?: Record<string, unknown>; options?: unknown[]; wrapped?: unknown; item?: unknown } | undefined;
  if (!s || at.length > 8) return [];
  if (s.type === 'number') return [at];
  if (s.entries) return Object.entries(s.entries).flatMap(([key, inner]) => numberFieldsOf(inner, [...at, key]));
  if (s.options) return s.options.flatMap((option) => numberFieldsOf(option, at));
  if (s.wrapped) return numberFieldsOf(s.wrapped, at);
  if (s.item) return numberFieldsOf(s.item, [...at, '0']);
  return [];
}

function rangeProbes(route: RouteDef): Probe[] {
  if (!takesBody(route) || isForm(route) || isPage(route)) return [];
  return uniquePaths(numberFieldsOf(route.body)).flatMap((path) =>
    OUT_OF_STORE.map((literal) =>
      probe('range', `body ${path.join('.')}: ${literal}`, route, { body: JSON.stringify(replaced(baseBody(route), path, '@')).replace('"@"', literal) }),
    ),
  );
}

function typeProbes(route: RouteDef): Probe[] {
  if (!takesBody(route) && !ALL_ODD_VALUES) return [];
  const fields = ALL_ODD_VALUES ? [...valuePaths(baseBody(route)), ...fieldsOf(route.body).map((name) => [name])] : bodyFields(route);
  // The MCP endpoint's body is JSON-RPC, whose own refusals the deep case reaches; its tools' arguments are checked by its tests.
  // Each field one of the few values in turn (npm test), or every value (test:deep).
  const valuesOf = (i: number): Json[] => (ALL_ODD_VALUES ? ODD_ALL : [ODD_FEW[i % ODD_FEW.length]!]);
  const body =
    takesBody(route) && !isMcp(route)
      ? uniquePaths(fields).flatMap((path, i) =>
          valuesOf(i).map((value) =>
            probe('type', `body ${path.join('.')}: ${JSON.stringify(value)}`, route, { body: replaced(baseBody(route), path, value) }),
          ),
        )
      : [];
  if (!ALL_ODD_VALUES) return body;
  const whole = takesBody(route) && !isMcp(route) ? ODD_BODIES.map((text) => probe('type', `the body ${JSON.stringify(text)}`, route, { body: text })) : [];
  const query = queryFields(route).flatMap((name) =>
    ODD_TEXTS.map((text) => probe('type', `query ${name}: ${JSON.stringify(text)}`, route, { query: { ...baseQuery(route), [name]: text } })),
  );
  const params = pathParametersOf(route.path).flatMap((name) =>
    ODD_PATH_PARAMETERS.map((text) => probe('type', `path {${name}}: ${text}`, route, { params: { [name]: text } })),
  );
  return [...body, ...whole, ...query, ...params];
}

/**
 * Odd values in the headers the platform reads: in `npm test` one request with each of them odd, the values taking
 * turns from route to route; with every odd value (test:deep), each header with each value alone.
 */
function headerProbes(route: RouteDef): Probe[] {
  if (ALL_ODD_VALUES)
    return READ_HEADERS.flatMap((name) =>
      ODD_HEADERS.map((value) => probe('header', `${name}: ${JSON.stringify(value.slice(0, 20))}`, route, { headers: { [name]: value } })),
    );
  const turn = operations.indexOf(route);
  const headers = Object.fromEntries(READ_HEADERS.map((name, i) => [name, ODD_HEADERS[(turn + i) % ODD_HEADERS.length]!]));
  return [probe('header', `odd ${READ_HEADERS.join(', ')}`, route, { headers })];
}

/** The credentials of every kind, and malformed ones, by name. */
function credentials(): Record<string, Record<string, string>> {
  return {
    'a merchant key': { authorization: `Bearer ${fx.merchantKey}` },
    'a merchant key as ApiKey': { authorization: `ApiKey ${fx.merchantKey}` },
    'an organization key': { authorization: `ApiKey ${fx.orgKey}` },
    'an organization key as Bearer': { authorization: `Bearer ${fx.orgKey}` },
    'a session': { authorization: `Bearer ${fx.session}` },
    'a session as ApiKey': { authorization: `ApiKey ${fx.session}` },
    'an OAuth session cookie holding a dashboard session': { cookie: `${OAUTH_SESSION_COOKIE}=${fx.session}` },
    'an agent token': { authorization: `Bearer ${fx.agentToken}` },
    'an unknown OAuth access token': { authorization: `Bearer ${exampleIds.oauthAccessTokenToRevoke}` },
    'a hosted-fields client token': { authorization: `Bearer ${fx.clientToken}` },
    'a malformed Bearer': { authorization: `Bearer mor_${'z'.repeat(2_000)}` },
    'a malformed ApiKey': { authorization: 'ApiKey not_a_key' },
    'Basic credentials': { authorization: `Basic ${Buffer.from(`${fx.merchantKey}:`).toString('base64')}` },
    'a merchant key as the session cookie': { cookie: `${SESSION_COOKIE}=${fx.merchantKey}` },
    'an organization key as the session cookie': { cookie: `${SESSION_COOKIE}=${fx.orgKey}` },
    'an agent token as the session cookie': { cookie: `${SESSION_COOKIE}=${fx.agentToken}` },
    'a dashboard session as the portal cookie': { cookie: `${PORTAL_SESSION_COOKIE}=${fx.session}` },
    'a portal session as the session cookie': { cookie: `${SESSION_COOKIE}=${fx.portalSession}` },
    'a merchant key as the portal cookie': { cookie: `${PORTAL_SESSION_COOKIE}=${fx.merchantKey}` },
  };
}

/** The credentials of another kind than the route's own that it is sent. */
function wrongKinds(route: RouteDef): string[] {
  if (isPage(route) && route.auth === 'portalSession')
    return ['a dashboard session as the portal cookie', 'a merchant key as the portal cookie', 'a portal session as the session cookie', 'a merchant key'];
  if (isPage(route) && route.auth === 'session')
    return [
      'a portal session as the session cookie',
      'a merchant key as the session cookie',
      'an organization key as the session cookie',
      'an agent token as the session cookie',
      'an OAuth session cookie holding a dashboard session',
    ];
  switch (route.auth) {
    case 'apiKey':
      return ['an organization key', 'a session', 'an agent token', 'an unknown OAuth access token', 'a hosted-fields client token', 'a malformed Bearer'];
    case 'orgApiKey':
      return ['a merchant key', 'a merchant key as ApiKey', 'an organization key as Bearer', 'a session as ApiKey', 'a malformed ApiKey'];
    case 'session':
      // The session cookie is this kind's credential too (`authenticateSession`); under the OAuth pages' cookie name it is not.
      return [
        'a merchant key',
        'an organization key',
        'an agent token',
        'a hosted-fields client token',
        'an OAuth session cookie holding a dashboard session',
        'a malformed Bearer',
      ];
    case 'clientToken':
      return ['a merchant key', 'an organization key', 'a session', 'an agent token'];
    case 'agentToken':
      return ['a merchant key', 'a session', 'an organization key', 'a hosted-fields client token', 'a malformed Bearer'];
    default:
      return ['a merchant key', 'an OAuth session cookie holding a dashboard session', 'Basic credentials'];
  }
}

function credentialProbes(route: RouteDef): Probe[] {
  const all = credentials();
  if (route.auth === 'accountSecret') {
    // The credential is the body's `secret`: an API key or a session in its place, or an ApiKey header without it.
    const { secret: _, ...withoutSecret } = baseBody(route);
    return [
      probe('credential', 'the organization key as the secret', route, { body: { ...baseBody(route), secret: fx.orgKey } }),
      probe('credential', 'a session as the secret', route, { body: { ...baseBody(route), secret: fx.session } }),
      probe('credential', 'an organization key header instead of the secret', route, { body: withoutSecret, credential: all['an organization key'] }),
    ];
  }
  // A route without credentials ignores them; its body then carries control characters, so that nothing is written.
  const body = route.auth === 'none' && takesBody(route) ? controlProbes(route)[0]!.body : undefined;
  return wrongKinds(route).map((name) => ({
    ...probe('credential', name, route, { credential: all[name] }),
    ...(body === undefined ? {} : { body }),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Sending and judging

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY, localAddress: FUZZ_ADDRESS });

function send(p: Probe): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...p.headers, ...(p.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(p.body)) }) };
    const req = http.request({ host: base.hostname, port: base.port, method: p.route.method, path: p.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown = null;
        try {
          json = text ? JSON.parse(text) : null;
        } catch {
          // a page, a script, a PDF
        }
        const get = (name: string) => {
          const value = res.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        };
        resolve({ status: res.statusCode!, contentType: get('content-type') ?? '', headers: { get }, text, json });
      });
    });
    req.setTimeout(30_000, () => req.destroy(new Error('no answer within 30 s')));
    req.on('error', reject);
    req.end(p.body);
  });
}

const mediaType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

/** A JSON-RPC error response: the MCP transport's own refusals (not in the agent face's shape, by the MCP spec). */
const isJsonRpcError = (json: any) =>
  json?.jsonrpc === '2.0' && typeof json.error?.code === 'number' && typeof json.error.message === 'string' && Object.keys(json).length <= 3;

/** A page's answer to a request without a (valid) session: 303 to the dashboard's sign-in page, or to the portal's entry page. */
const isSignInRedirect = (route: RouteDef, answer: Answer) => {
  const location = answer.headers.get('location');
  if (answer.status !== 303 || location === null || !URL.canParse(location)) return false;
  const at = new URL(location).pathname;
  return route.auth === 'portalSession' ? /^\/portal\/[^/]+$/.test(at) : at === SIGN_IN_PATH;
};

/** What is wrong with `answer` to `p`, or null. */
function problemOf(p: Probe, answer: Answer): string | null {
  const { route, kind } = p;
  if (answer.status >= 500) return `answered ${answer.status}`;
  if (kind === 'credential' && route.auth !== 'none' && answer.status < 300) return `took ${p.label} for its own credential (${answer.status})`;
  if (kind === 'overflow' && answer.status < 300) return `took ${p.label} (${answer.status})`;
  if (isPage(route)) {
    // A page without a (valid) session sends the browser to the sign-in page; every other refusal is a page.
    if ((route.auth === 'session' || route.auth === 'portalSession') && isSignInRedirect(route, answer)) return null;
    if (answer.status >= 400) {
      if (mediaType(answer.contentType) !== 'text/html') return `a page's refusal is ${answer.contentType || 'without a content type'}, not text/html`;
      if (!v.is(htmlPage, answer.text)) return "a page's refusal is not a whole HTML page";
      if (route.contentType !== 'text/html') return null;
    }
  }
  if (isMcp(route) && answer.status >= 400 && typeof (answer.json as any)?.statusCode !== 'number') {
    return isJsonRpcError(answer.json) ? null : `neither the agent face's error nor a JSON-RPC error: ${answer.text.slice(0, 200)}`;
  }
  try {
    checkContractAt(route.method, p.path, answer.status, answer.json, answer.text, answer.contentType, answer.headers);
  } catch (e) {
    return `${(e as Error).message.slice(0, 300)} [${answer.contentType}] ${answer.text.slice(0, 160)}`;
  }
  return null;
}

/** Sends the probes `CONCURRENCY` at a time; the problems found, one line each. */
async function fuzz(probes: readonly Probe[]): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const p = probes[next++]!;
      const where = `${p.route.name} (${p.route.method} ${p.route.path}), ${p.label}`;
      try {
        const problem = problemOf(p, await send(p));
        if (problem) problems.push(`${where}: ${problem}`);
      } catch (e) {
        problems.push(`${where}: no answer (${(e as Error).message})`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------

const timeout = 120_000;

describe('every operation, fuzzed', () => {
  it('sends each operation of the sandbox main API every case that applies to it, each to that operation', () => {
    const names = operations.map((r) => r.name);
    for (const name of ['oauth-authorize', 'oauth-authorize-form', 'oauth-token', 'oauth-revoke', 'oauth-register', 'mcp', 'dashboard-sign-in-form'])
      expect(names).toContain(name);
    expect(operations.length).toBeGreaterThan(200);
    const matcher = routeMatcher(operations);
    const probes = operations.flatMap((r) => [
      ...deepProbes(r),
      ...longProbes(r),
      ...controlProbes(r),
      ...overflowProbes(r),
      ...rangeProbes(r),
      ...typeProbes(r),
      ...headerProbes(r),
      ...credentialProbes(r),
    ]);
    // The gateway routes every probe to the operation it is for (not to its own 404 or another route).
    expect(probes.filter((p) => matcher.match(p.route.method, p.path.split('?')[0]!)?.route !== p.route).map((p) => `${p.route.name}: ${p.label}`)).toEqual([]);
    const missing = operations.flatMap((route) => {
      const labels = new Set(probes.filter((p) => p.route === route).map((p) => `${p.kind} ${p.label}`));
      const count = (kind: Case, prefix = '') => [...labels].filter((l) => l.startsWith(`${kind} ${prefix}`)).length;
      const expected: Array<[string, boolean]> = [
        ...pathParametersOf(route.path).flatMap(
          (name): Array<[string, boolean]> => [
            [`long {${name}}`, labels.has(`long path {${name}}: 10,000 characters`)],
            [`control {${name}}`, labels.has(`control path {${name}}: control characters`)],
          ],
        ),
        ['a long query parameter', count('long', 'query ') >= 1],
        ['control characters in the query', count('control', 'query ') === 1],
        ['a deep body', !takesBody(route) || count('deep') === 2],
        ['a long body field and an unknown one', !takesBody(route) || count('long', 'body ') >= 2],
        ['control characters in the body', !takesBody(route) || count('control', 'body ') === 1],
        [
          'a value of the wrong type in each body field',
          !takesBody(route) ||
            isMcp(route) ||
            (ALL_ODD_VALUES ? count('type', 'body ') >= bodyFields(route).length : count('type', 'body ') === bodyFields(route).length),
        ],
        ['odd values in the headers the platform reads', count('header') >= 1],
        ['three credentials of other kinds', route.auth === 'none' || count('credential') >= 3],
      ];
      return expected.filter(([, ok]) => !ok).map(([what]) => `${route.name}: ${what}`);
    });
    expect(missing).toEqual([]);
  });

  it('answers a body nested 10,000 deep, whole or in a field, with a refusal in its face, never a 5xx', { timeout }, async () => {
    const probes = operations.flatMap(deepProbes);
    expect(probes).toHaveLength(2 * operations.filter(takesBody).length);
    expect(await fuzz(probes)).toEqual([]);
  });

  it('answers a 10,000-character string in each field, query parameter and path parameter without a 5xx', { timeout }, async () => {
    const probes = operations.flatMap(longProbes);
    expect(probes.length).toBeGreaterThan(800);
    expect(await fuzz(probes)).toEqual([]);
  });

  it('answers control characters in a field, a query parameter and each path parameter without a 5xx', { timeout }, async () => {
    const probes = operations.flatMap(controlProbes);
    expect(probes.length).toBeGreaterThan(400);
    expect(await fuzz(probes)).toEqual([]);
  });

  it('refuses a number past the range of a double in each number field and query parameter, never a 5xx nor taking it', { timeout }, async () => {
    const probes = operations.flatMap(overflowProbes);
    expect(probes.length).toBeGreaterThan(100);
    expect(await fuzz(probes)).toEqual([]);
  });

  it('answers a number DynamoDB does not store as given, in each number field of a request, without a 5xx', { timeout }, async () => {
    const probes = operations.flatMap(rangeProbes);
    // Among them, the custom field's default, which once reached the table and failed there.
    expect(probes.map((p) => `${p.route.name} ${p.label}`)).toContain('custom-fields-create body typeSchema.additionalSchema.default: 9007199254740994');
    expect(probes.length).toBeGreaterThan(100);
    expect(await fuzz(probes)).toEqual([]);
  });

  it('answers values of the wrong type or shape in each field of a request without a 5xx', { timeout: ALL_ODD_VALUES ? 1_800_000 : timeout }, async () => {
    const probes = operations.flatMap(typeProbes);
    expect(probes.length).toBeGreaterThan(ALL_ODD_VALUES ? 20_000 : 500);
    expect(await fuzz(probes)).toEqual([]);
  });

  it('answers odd values in the headers it reads (Referer, Origin, Idempotency-Key, …) without a 5xx', {
    timeout: ALL_ODD_VALUES ? 1_800_000 : timeout,
  }, async () => {
    const probes = operations.flatMap(headerProbes);
    expect(probes.length).toBe(operations.length * (ALL_ODD_VALUES ? READ_HEADERS.length * ODD_HEADERS.length : 1));
    expect(await fuzz(probes)).toEqual([]);
  });

  it("refuses another face's credential, and a malformed one, without a 5xx", { timeout }, async () => {
    const probes = operations.flatMap(credentialProbes);
    expect(probes.length).toBeGreaterThan(700);
    expect(await fuzz(probes)).toEqual([]);
  });
});
