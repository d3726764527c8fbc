/**
 * The sign-ins and their edges, held to one set of rules, through the local gateway:
 * - the OAuth sign-in is as guarded as the dashboard's: its forms need this origin (`Origin`, or
 *   `Sec-Fetch-Site: same-origin`), its cookie is `__Host-` prefixed and Secure, and its session works on the
 *   OAuth pages only — never as a dashboard session, nor a dashboard session there;
 * - the dashboard's sign-in page says when to try again after too many attempts (`Retry-After`), an unknown
 *   `/dashboard/*` address is the dashboard's 404 page under its CSP, and the cookie-authenticated JSON back end
 *   refuses a change sent from another site's page;
 * - a `tools/call` with a malformed `name` or `arguments` is JSON-RPC -32602, naming what is wrong;
 * - registration refuses a redirect URI with a wildcard, without `//`, or with a backslash and `@`.
 */
import { describe, expect, it } from 'vitest';
import { signInLimits } from '../../../shared/people/throttle.service.ts';
import { inOneWindow } from '../../support/dates.ts';
import { call, PASSWORD, rootMerchant, uniqueEmail } from '../../support/fixtures.ts';
import { agent, rawMcp } from '../../agents/support.ts';
import {
  authorizationParams,
  authorizePath,
  consentPage,
  formFields,
  origin,
  pkce,
  postForm,
  publicClient,
  registerClient,
  request,
  sessionCookieOf,
  signIn,
} from '../../oauth/support.ts';
import { fetchFrom } from '../../support/loopback-source.ts';

const MCP_HEADERS = { 'mcp-protocol-version': '2025-11-25' };
/** The last protocol version that takes JSON-RPC batches. */
const BATCH_HEADERS = { 'mcp-protocol-version': '2025-03-26' };

/** The sign-in form of a fresh authorization request, and the person to sign in with. */
async function signInForm() {
  const client = await publicClient();
  const merchant = await rootMerchant('Guarded shop');
  const params = authorizationParams(client, pkce().challenge);
  const page = await request('GET', authorizePath(params));
  return { params, fields: { ...formFields(page.text, 'sign_in'), email: merchant.ownerEmail, password: PASSWORD }, merchant };
}

describe('the OAuth sign-in under the dashboard rules', () => {
  it('refuses a form with no Origin unless the browser says same-origin, and one another site sent', async () => {
    const { fields } = await signInForm();
    for (const headers of [
      { origin: undefined },
      { origin: undefined, 'sec-fetch-site': 'cross-site' },
      { origin: undefined, 'sec-fetch-site': 'same-site' },
    ]) {
      const refused = await postForm('/api/v1/oauth/authorize', fields, headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(refused.text).toContain('This form was sent from another website, so it was not accepted.');
      expect(refused.cookies).toEqual([]);
    }
    const signedIn = await postForm('/api/v1/oauth/authorize', fields, { origin: undefined, 'sec-fetch-site': 'same-origin' });
    expect(signedIn.status).toBe(303);
    // Its session, and the browser's device cookie.
    expect(signedIn.cookies.map((c) => c.split('=')[0])).toEqual(['__Host-mor_oauth_session', '__Host-mor_device']);
  });

  it('keeps its session in a __Host- cookie that is not a dashboard session, and takes no dashboard session', async () => {
    const { params, fields, merchant } = await signInForm();
    const signedIn = await postForm('/api/v1/oauth/authorize', fields);
    expect(signedIn.cookies[0]).toMatch(
      /^__Host-mor_oauth_session=mor_sess_[0-9a-f-]{36}\.[0-9a-f]{64}; HttpOnly; Secure; SameSite=Lax; Path=\/; Max-Age=3600$/,
    );
    const oauthToken = sessionCookieOf(signedIn).split('=')[1]!;
    // It opens the consent page…
    expect((await consentPage(params, sessionCookieOf(signedIn))).text).toContain('Approve');
    // …but not the dashboard, as a cookie or as a bearer token.
    // (A signed-out page is a redirect to the sign-in, which the contract check would call undeclared: plain fetch.)
    const page = await fetch(`${origin}/dashboard`, { redirect: 'manual', headers: { cookie: `__Host-mor_session=${oauthToken}` } });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`${origin}/dashboard/sign-in?next=%2Fdashboard&done=expired`);
    const me = await call('GET', '/v1/dashboard/me', { key: oauthToken });
    expect(me.status).toBe(401);
    expect(me.json.code).toBe('auth.invalid_session');
    // A dashboard session does not sign anyone in on the OAuth pages either.
    const dashboardSession = await call('POST', '/v1/dashboard/sessions', { body: { email: merchant.ownerEmail, password: PASSWORD } });
    expect(dashboardSession.status).toBe(201);
    const withDashboardSession = await request('GET', authorizePath(params), {
      headers: { cookie: `__Host-mor_oauth_session=${dashboardSession.json.token}` },
    });
    expect(withDashboardSession.status).toBe(200);
    expect(withDashboardSession.text).toContain('<button type="submit">Sign in</button>');
    expect(withDashboardSession.text).not.toContain('Approve');
  });

  it('signs out of the OAuth session only: a dashboard session of the same person lives on', async () => {
    const { params, merchant } = await signInForm();
    const cookie = await signIn(params, { email: merchant.ownerEmail, password: PASSWORD });
    const dashboardSession = (await call('POST', '/v1/dashboard/sessions', { body: { email: merchant.ownerEmail, password: PASSWORD } })).json.token as string;
    const out = await postForm('/api/v1/oauth/authorize', formFields((await consentPage(params, cookie)).text, 'sign_out'), { cookie });
    expect(out.status).toBe(303);
    expect((await request('GET', authorizePath(params), { headers: { cookie } })).text).toContain('<button type="submit">Sign in</button>');
    expect((await call('GET', '/v1/dashboard/me', { key: dashboardSession })).status).toBe(200);
  });
});

describe('the dashboard edges', () => {
  it("answers a throttled sign-in form with 429 and Retry-After, as the JSON API's 429 does", { timeout: 45_000 }, async () => {
    const email = uniqueEmail('throttled');
    // From a loopback address of its own: its ten failures are not counted on the one every other test signs in from.
    const attempt = () =>
      fetchFrom('127.0.0.3')(`${origin}/dashboard/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: new URLSearchParams({ email, password: 'not the password at all' }).toString(),
      });
    // The limit is 10 failures in a fixed 15-minute window: eleven attempts that would straddle a window's end (a CI
    // run at 13:15 UTC filled neither) are started after it instead.
    await inOneWindow(signInLimits.email.windowSeconds);
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push(await attempt());
    expect(answers.map((a) => a.status)).toEqual([...Array(10).fill(401), 429]);
    const last = answers[10]!;
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await last.text()).toContain('Too many');
    const json = await call('POST', '/v1/dashboard/sessions', { body: { email, password: 'not the password at all' } });
    expect(json.status).toBe(429);
    // The same window's end: a second may have passed between the two answers.
    const form = Number(last.headers.get('retry-after'));
    expect(Number(json.headers.get('retry-after'))).toBeGreaterThanOrEqual(form - 1);
    expect(Number(json.headers.get('retry-after'))).toBeLessThanOrEqual(form);
  });

  it.each(['/dashboard/nope', '/dashboard/settings/a/b', '/dashboard/assets/nothing.css'])(
    'answers %s with the dashboard 404 page and its CSP',
    async (path) => {
      const res = await request('GET', path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.text).toContain('<h1>Page not found</h1>');
      expect(res.text).toContain('There is no dashboard page at this address.');
    },
  );

  it('refuses a change of the cookie-authenticated JSON back end sent from another site, and changes nothing', async () => {
    const merchant = await rootMerchant('Cookie shop');
    const session = (await call('POST', '/v1/dashboard/sessions', { body: { email: merchant.ownerEmail, password: PASSWORD } })).json.token as string;
    const path = `/v1/dashboard/merchants/${merchant.merchantId}/mcp-tokens`;
    const cookie = { cookie: `__Host-mor_session=${session}` };
    const mint = (headers: Record<string, string>) =>
      call('POST', path, { body: { name: 'cross-site', scopes: ['merchant:read'] }, headers: { ...cookie, ...headers } });
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of foreign) {
      const refused = await mint(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.json).toEqual({
        statusCode: 403,
        code: 'request.cross_origin',
        message: 'This request was sent from another site, so nothing was changed. Open the page here and send it again.',
        details: {},
      });
    }
    expect((await call('GET', path, { headers: cookie })).json.data).toEqual([]);
    // The dashboard's own page, and a program with no Origin, are served.
    expect((await mint({ origin })).status).toBe(201);
    expect((await call('POST', path, { key: session, body: { name: 'program', scopes: ['merchant:read'] } })).status).toBe(201);
    expect((await call('GET', path, { headers: cookie })).json.data).toHaveLength(2);
  });
});

describe('tools/call with malformed params', () => {
  it.each([
    ['a numeric name', { name: 7, arguments: {} }, 'params.name must be a string'],
    ['arguments that is an array', { name: 'get_my_merchant', arguments: [] }, 'params.arguments must be an object'],
    ['arguments that is a string', { name: 'get_my_merchant', arguments: 'x' }, 'params.arguments must be an object'],
    ['arguments that is null', { name: 'get_my_merchant', arguments: null }, 'params.arguments must be an object'],
    ['no params at all', undefined, 'params must be an object'],
    ['params that is an array', ['get_my_merchant'], 'params must be an object naming the tool'],
  ])('answers %s with JSON-RPC -32602 naming the problem', async (_, params, message) => {
    const a = await agent(['merchant:read']);
    const res = await rawMcp(a.token, { jsonrpc: '2.0', id: 9, method: 'tools/call', ...(params === undefined ? {} : { params }) }, MCP_HEADERS);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32602, message: expect.stringContaining(`Invalid params: ${message}`) } });
  });

  it('answers each malformed call of a batch as alone, beside the answers of the rest, and a batch of one with an array', async () => {
    const a = await agent(['merchant:read']);
    const batch = await rawMcp(
      a.token,
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_my_merchant', arguments: [] } },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 7 } },
      ],
      BATCH_HEADERS,
    );
    expect(batch.status).toBe(200);
    const byId = new Map((batch.json as Array<{ id: number }>).map((m) => [m.id, m]));
    expect([...byId.keys()].sort()).toEqual([1, 2, 3]);
    expect(byId.get(1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: expect.stringContaining('Invalid params: params.arguments must be an object') },
    });
    expect(byId.get(3)).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: expect.stringContaining('Invalid params: params.name must be a string') },
    });
    expect(byId.get(2)).toMatchObject({ result: { tools: expect.any(Array) } });
    const one = await rawMcp(a.token, [{ jsonrpc: '2.0', id: 4, method: 'tools/list' }], BATCH_HEADERS);
    expect(one.json).toEqual([expect.objectContaining({ id: 4, result: expect.objectContaining({ tools: expect.any(Array) }) })]);
    const refusedOnly = await rawMcp(a.token, [{ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 7 } }], BATCH_HEADERS);
    expect(refusedOnly.json).toEqual([expect.objectContaining({ id: 5, error: expect.objectContaining({ code: -32602 }) })]);
  });

  it('runs no request of a batch whose id another carries, answers an empty batch -32600, and checks scopes on what it runs', async () => {
    const a = await agent(['merchant:read']);
    const twice = await rawMcp(
      a.token,
      [
        { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_my_merchant', arguments: {} } },
        { jsonrpc: '2.0', id: 7, method: 'tools/list' },
        { jsonrpc: '2.0', id: 8, method: 'tools/list' },
      ],
      BATCH_HEADERS,
    );
    expect(twice.status).toBe(200);
    const answers = twice.json as Array<{ id: number; error?: { code: number; message: string }; result?: unknown }>;
    expect(answers.filter((m) => m.id === 7)).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringContaining('more than one request') } },
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringContaining('more than one request') } },
    ]);
    expect(answers.find((m) => m.id === 8)).toMatchObject({ result: { tools: expect.any(Array) } });
    const empty = await rawMcp(a.token, [], BATCH_HEADERS);
    expect(empty.status).toBe(400);
    expect(empty.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('empty') } });
    // From 2025-06-18 on, a request is one message: a batch is refused whole, and nothing of it runs; with no version
    // named, the client is taken to speak 2025-03-26, which takes batches.
    for (const version of ['2025-06-18', '2025-11-25']) {
      const refused = await rawMcp(a.token, [{ jsonrpc: '2.0', id: 11, method: 'tools/list' }], { 'mcp-protocol-version': version });
      expect(refused.status, version).toBe(400);
      expect(refused.json).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('not a batch') } });
    }
    const unnamed = await rawMcp(a.token, [{ jsonrpc: '2.0', id: 12, method: 'tools/list' }]);
    expect(unnamed.json).toEqual([expect.objectContaining({ id: 12, result: expect.objectContaining({ tools: expect.any(Array) }) })]);
    // A malformed call of a tool the token may not use is answered -32602 as alone, not refused for its scope.
    const scoped = await rawMcp(
      a.token,
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_product', arguments: [] } },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      ],
      BATCH_HEADERS,
    );
    expect(scoped.status).toBe(200);
    expect((scoped.json as Array<{ id: number }>).find((m) => m.id === 1)).toMatchObject({ error: { code: -32602 } });
  });

  it('checks a body that starts with a byte order mark as any other: a batch sharing an id runs none of it', async () => {
    const a = await agent(['merchant:read']);
    const batch = [
      { jsonrpc: '2.0', id: 9, method: 'tools/list' },
      { jsonrpc: '2.0', id: 9, method: 'ping' },
    ];
    const marked = await rawMcp(a.token, `\uFEFF${JSON.stringify(batch)}`, BATCH_HEADERS);
    expect(marked.status).toBe(200);
    expect(marked.json).toEqual([
      { jsonrpc: '2.0', id: 9, error: { code: -32600, message: expect.stringContaining('more than one request') } },
      { jsonrpc: '2.0', id: 9, error: { code: -32600, message: expect.stringContaining('more than one request') } },
    ]);
    const twice = await rawMcp(a.token, `\uFEFF\uFEFF${JSON.stringify(batch)}`, BATCH_HEADERS);
    expect(twice.json).toEqual(marked.json);
    const one = await rawMcp(a.token, `\uFEFF${JSON.stringify([{ jsonrpc: '2.0', id: 10, method: 'ping' }])}`, BATCH_HEADERS);
    expect(one.json).toEqual([{ jsonrpc: '2.0', id: 10, result: {} }]);
  });

  it('refuses an argument named __proto__ as any argument the tool does not have', async () => {
    const a = await agent(['merchant:read']);
    // Written by hand: JSON.stringify would leave the key out of an object literal's prototype.
    const body = '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"get_my_merchant","arguments":{"__proto__":{"x":1}}}}';
    const res = await rawMcp(a.token, body, MCP_HEADERS);
    expect(res.status).toBe(200);
    expect(res.json.result.isError).toBe(true);
    expect(res.json.result.structuredContent.error).toMatchObject({ code: 'request.invalid_arguments', message: expect.stringContaining('__proto__') });
  });
});

describe('registration', () => {
  it.each([
    ['https://*.evil.example/cb', 'must not contain a wildcard'],
    ['https:evil.example/cb', 'is not an absolute URL'],
    ['https://evil.example\\@good.example/', 'must not contain a backslash'],
    ['https://user@good.example/cb', 'must not contain a user name or password'],
  ])('refuses the redirect URI %s with invalid_redirect_uri', async (uri, problem) => {
    const res = await registerClient({ client_name: 'Loose', redirect_uris: [uri], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_redirect_uri');
    expect(res.json.error_description).toContain(problem);
  });
});
