/**
 * The OAuth 2.1 authorization server of the MCP endpoint, over HTTP through the local gateway: discovery documents,
 * dynamic client registration, the authorization endpoint (its refusals, sign-in and consent), the token endpoint
 * (PKCE, single-use codes, rotation and reuse detection), revocation, and what `verifyOAuthAccessToken` — the MCP
 * endpoint's check — makes of the tokens.
 */
import { describe, expect, it } from 'vitest';
import { agentScopes } from '../../../shared/domain/agent-scopes.ts';
import { verifyOAuthAccessToken } from '../../../shared/oauth/access-tokens.service.ts';
import { registerClient as registerInProcess, registrationLimit } from '../../../shared/oauth/clients.service.ts';
import { issueTokens } from '../../../shared/oauth/tokens.service.ts';
import { createRootMerchant } from '../../../shared/people/merchants.service.ts';
import { call, joinTeam, PASSWORD, person } from '../../support/fixtures.ts';
import {
  authorizationParams,
  authorize,
  authorizePath,
  consentPage,
  exchange,
  formFields,
  merchantOwner,
  origin,
  pkce,
  postForm,
  publicClient,
  registerClient,
  request,
  signIn,
  tokenRequest,
} from '../support.ts';

const redirectParams = (answer: { headers: Headers }) => {
  const location = answer.headers.get('location');
  expect(location).toBeTruthy();
  return new URL(location!);
};

describe('the discovery documents at the host root', () => {
  it('describe the authorization server (RFC 8414): issuer, endpoints, S256 only, grants, auth methods, scopes, CIMD and iss support', async () => {
    const res = await request('GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      issuer: origin,
      authorization_endpoint: `${origin}/api/v1/oauth/authorize`,
      token_endpoint: `${origin}/api/v1/oauth/token`,
      registration_endpoint: `${origin}/api/v1/oauth/register`,
      revocation_endpoint: `${origin}/api/v1/oauth/revoke`,
      scopes_supported: [...agentScopes],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('describe the MCP endpoint as a protected resource (RFC 9728): resource exactly <origin>/api/mcp, this server, header bearer tokens', async () => {
    const res = await request('GET', '/.well-known/oauth-protected-resource/api/mcp');
    expect(res.status).toBe(200);
    expect(res.json.resource).toBe(`${origin}/api/mcp`);
    expect(res.json.authorization_servers).toEqual([origin]);
    expect(res.json.scopes_supported).toEqual([...agentScopes]);
    expect(res.json.bearer_methods_supported).toEqual(['header']);
  });

  it.each(['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/api/mcp'])(
    '%s: readable from any origin, cacheable, with an ETag that answers 304',
    async (path) => {
      const first = await request('GET', path, { headers: { origin: 'https://inspector.example' } });
      expect(first.headers.get('access-control-allow-origin')).toBe('*');
      expect(first.headers.get('access-control-allow-credentials')).toBeNull();
      expect(first.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(first.headers.get('content-type')).toBe('application/json');
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      const again = await request('GET', path, { headers: { 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('access-control-allow-origin')).toBe('*');
      expect((await request('GET', path, { headers: { 'if-none-match': `W/"x", W/${etag}` } })).status).toBe(304);
      expect((await request('GET', path, { headers: { 'if-none-match': '"another"' } })).status).toBe(200);
    },
  );
});

describe('CORS preflight of the JSON endpoints', () => {
  it.each([
    ['/api/v1/oauth/register', 'POST, OPTIONS'],
    ['/api/v1/oauth/token', 'POST, OPTIONS'],
    ['/api/v1/oauth/revoke', 'POST, OPTIONS'],
  ])('grants %s to any origin: its methods, content-type and authorization, no credentials', async (path, methods) => {
    const res = await request('OPTIONS', path, {
      headers: {
        origin: 'https://inspector.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe(methods);
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('grants nothing for the authorization pages (navigated to, never read) or a path no route has', async () => {
    for (const path of ['/api/v1/oauth/authorize', '/api/v1/oauth/nothing']) {
      const res = await request('OPTIONS', path, { headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' } });
      expect(res.status, path).toBe(404);
      expect(res.json).toEqual({ error: 'invalid_request', error_description: 'No route has this path.' });
      expect(res.headers.get('access-control-allow-methods')).toBeNull();
    }
  });
});

describe('dynamic client registration (RFC 7591)', () => {
  it('registers a public client: a client_id, no secret, its metadata echoed', async () => {
    const res = await registerClient({
      client_name: 'Claude',
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      software_id: 'ignored',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.json).toEqual({
      client_id: expect.stringMatching(/^oac_[0-9a-f]{32}$/),
      client_id_issued_at: expect.any(Number),
      redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: 'Claude',
    });
    expect(Math.abs(res.json.client_id_issued_at - Date.now() / 1000)).toBeLessThan(60);
  });

  it('registers a confidential client (client_secret_basic by default, or client_secret_post) whose secret is shown once', async () => {
    const basic = await registerClient({ redirect_uris: ['https://agent.example/cb'] });
    expect(basic.status).toBe(201);
    expect(basic.json.token_endpoint_auth_method).toBe('client_secret_basic');
    expect(basic.json.grant_types).toEqual(['authorization_code']);
    expect(basic.json.client_secret).toMatch(/^mor_ocs_[0-9a-f]{64}$/);
    expect(basic.json.client_secret_expires_at).toBe(0);
    const post = await registerClient({ redirect_uris: ['https://agent.example/cb'], token_endpoint_auth_method: 'client_secret_post' });
    expect(post.json.token_endpoint_auth_method).toBe('client_secret_post');
    expect(post.json.client_secret).not.toBe(basic.json.client_secret);
  });

  it('accepts https redirect URIs and plain http ones to loopback only', async () => {
    const res = await registerClient({
      redirect_uris: ['https://app.example/cb?x=1', 'http://127.0.0.1:33418/callback', 'http://[::1]:8080/cb', 'http://localhost:6274/oauth/callback'],
      token_endpoint_auth_method: 'none',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.redirect_uris).toHaveLength(4);
  });

  it.each([
    ['plain http to a public host', ['http://app.example/cb']],
    ['plain http to a private address', ['http://192.168.1.10/cb']],
    ['a fragment', ['https://app.example/cb#frag']],
    ['a custom scheme', ['cursor://anysphere.cursor-retrieval/oauth/callback']],
    ['javascript:', ['javascript:alert(1)']],
    ['user info', ['https://user:pass@app.example/cb']],
    ['a relative URL', ['/cb']],
    ['no URI', []],
    ['not strings', [42]],
    ['eleven URIs', Array.from({ length: 11 }, (_, i) => `https://app.example/cb${i}`)],
  ])('refuses %s with 400 invalid_redirect_uri', async (_, uris) => {
    const res = await registerClient({ redirect_uris: uris, token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_redirect_uri');
    expect(res.json.error_description).toMatch(/redirect_uris/);
  });

  it('refuses a registration without redirect_uris with 400 invalid_redirect_uri', async () => {
    const res = await registerClient({ client_name: 'No redirect' });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: 'invalid_redirect_uri', error_description: expect.stringContaining('redirect_uris') });
  });

  it.each([
    ['an auth method it does not support', { token_endpoint_auth_method: 'private_key_jwt' }, 'token_endpoint_auth_method'],
    ['a grant type it does not support', { grant_types: ['client_credentials'] }, 'grant_types'],
    ['grant types without authorization_code', { grant_types: ['refresh_token'] }, 'grant_types'],
    ['another response type', { response_types: ['token'] }, 'response_types'],
    ['an empty name', { client_name: '  ' }, 'client_name'],
    ['a client_uri that is not https', { client_uri: 'http://app.example' }, 'client_uri'],
  ])('refuses %s with 400 invalid_client_metadata naming the field', async (_, extra, field) => {
    const res = await registerClient({ redirect_uris: ['https://app.example/cb'], ...extra });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_client_metadata');
    expect(res.json.error_description).toContain(field);
  });

  it('refuses a body that is not a JSON object with 400 invalid_request', async () => {
    for (const body of ['not json', '[1]']) {
      const res = await request('POST', '/api/v1/oauth/register', { body, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('invalid_request');
    }
  });

  it('counts registrations per source address: the limit passes, one more is 429 temporarily_unavailable with Retry-After', async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const now = new Date();
    const metadata = { redirect_uris: ['https://app.example/cb'], token_endpoint_auth_method: 'none' };
    for (let i = 0; i < registrationLimit.limit; i++) await registerInProcess(metadata, ip, now);
    const refused = await registerInProcess(metadata, ip, now).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, headers: { 'retry-after': expect.stringMatching(/^\d+$/) } });
    // Another address is not held back.
    await expect(registerInProcess(metadata, '198.51.100.0', now)).resolves.toMatchObject({ client_id: expect.any(String) });
  }, 60_000);
});

describe('the authorization endpoint: requests it refuses', () => {
  it('shows a page and never redirects for an unknown client or a missing client_id', async () => {
    const { challenge } = pkce();
    for (const clientId of ['oac_00000000000000000000000000000000', 'not-a-client', undefined]) {
      const res = await request(
        'GET',
        authorizePath({ ...authorizationParams({ clientId: clientId!, redirectUri: 'https://evil.example/cb' }, challenge), client_id: clientId }),
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('This link cannot be used');
    }
  });

  it('shows a page and never redirects for a redirect URI the client did not register (exact match)', async () => {
    const client = await publicClient();
    const { challenge } = pkce();
    for (const redirectUri of ['https://evil.example/cb', `${client.redirectUri}/`, `${client.redirectUri}?x=1`, client.redirectUri.toUpperCase()]) {
      const res = await request('GET', authorizePath(authorizationParams({ ...client, redirectUri }, challenge)));
      expect(res.status, redirectUri).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.text).toContain('is not one it registered');
      expect(res.text).not.toContain('evil.example');
    }
  });

  it("takes the client's only redirect URI when the request names none", async () => {
    const client = await publicClient();
    const res = await request('GET', authorizePath(authorizationParams(client, pkce().challenge, { redirect_uri: undefined })));
    expect(res.status).toBe(200);
    expect(res.text).toContain('Sign in');
  });

  it.each([
    ['no code_challenge', { code_challenge: undefined }, 'invalid_request', /code_challenge is required/],
    ['the plain method', { code_challenge_method: 'plain' }, 'invalid_request', /S256/],
    ['no code_challenge_method (plain by default)', { code_challenge_method: undefined }, 'invalid_request', /S256/],
    ['a challenge that is no S256 hash', { code_challenge: 'short' }, 'invalid_request', /43 characters/],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type', /code/],
    ['no response_type', { response_type: undefined }, 'invalid_request', /response_type/],
    ['another resource', { resource: 'https://elsewhere.example/api/mcp' }, 'invalid_target', /\/api\/mcp/],
  ])('shows %s as an error page naming the client and the error, never a redirect (RFC 9700 §4.11.2)', async (_, extra, error, description) => {
    const client = await publicClient();
    const params = authorizationParams(client, pkce().challenge, extra);
    const res = await request('GET', authorizePath(params));
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('This link cannot be used');
    expect(res.text).toContain('<strong>Test agent</strong>');
    expect(res.text).toContain(`error <code>${error}</code>`);
    expect(res.text).toMatch(description);
  });

  it('takes a request without resource, and ignores scope beyond a hint', async () => {
    const client = await publicClient();
    const res = await request('GET', authorizePath(authorizationParams(client, pkce().challenge, { resource: undefined, scope: 'nonsense payouts:write' })));
    expect(res.status).toBe(200);
  });
});

describe('the authorization endpoint: signing in and consenting', () => {
  it('shows the sign-in page under a strict CSP, without CORS, then signs the person in with a Lax, HttpOnly session cookie', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const params = authorizationParams(client, pkce().challenge);
    const page = await request('GET', authorizePath(params));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'$/,
    );
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.cookies).toEqual([]);
    expect(page.text).toContain('<label for="email">Email</label>');
    expect(page.text).toContain('<label for="password">Password</label>');
    expect(page.text).toContain('<button type="submit">Sign in</button>');
    expect(page.text).toContain('Test agent');
    expect(page.text).not.toMatch(/<script/i);

    const signedIn = await postForm('/api/v1/oauth/authorize', { ...formFields(page.text, 'sign_in'), email: owner.email, password: owner.password });
    expect(signedIn.status).toBe(303);
    const back = redirectParams(signedIn);
    expect(`${back.origin}${back.pathname}`).toBe(`${origin}/api/v1/oauth/authorize`);
    expect(Object.fromEntries(back.searchParams)).toEqual(params);
    // The session's cookie, and the browser's device cookie (sign-in's counters: shared/people/throttle.service.ts).
    expect(signedIn.cookies.map((c) => c.split('=')[0])).toEqual(['__Host-mor_oauth_session', '__Host-mor_device']);
    expect(signedIn.cookies[0]).toMatch(
      /^__Host-mor_oauth_session=mor_sess_[0-9a-f-]{36}\.[0-9a-f]{64}; HttpOnly; Secure; SameSite=Lax; Path=\/; Max-Age=3600$/,
    );
  });

  it('says what to do after a wrong password, keeps the e-mail, and throttles repeated failures (429)', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const page = await request('GET', authorizePath(authorizationParams(client, pkce().challenge)));
    const fields = formFields(page.text, 'sign_in');
    // From a loopback address of its own: its failures are not counted on the one every other test signs in from.
    const from = '127.0.0.4';
    const wrong = await postForm('/api/v1/oauth/authorize', { ...fields, email: owner.email, password: 'not the password at all' }, {}, from);
    expect(wrong.status).toBe(401);
    expect(wrong.cookies).toEqual([]);
    expect(wrong.text).toContain('Email or password is wrong. Check both and try again.');
    expect(wrong.text).toContain(`value="${owner.email}"`);
    const malformed = await postForm('/api/v1/oauth/authorize', { ...fields, email: 'not an address', password: 'x' }, {}, from);
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('Enter your email address, like name@example.com.');
    let last = wrong;
    for (let i = 0; i < 10 && last.status !== 429; i++)
      last = await postForm('/api/v1/oauth/authorize', { ...fields, email: owner.email, password: 'still not it at all' }, {}, from);
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(last.text).toMatch(/Too many attempts; try again in \d+ seconds\. Then sign in again\./);
  }, 60_000);

  it('shows the consent page: the client and its redirect host, the merchant, every scope checked, Approve and Deny', async () => {
    const client = await publicClient();
    const owner = await merchantOwner('Solo shop');
    const params = authorizationParams(client, pkce().challenge);
    const consent = await consentPage(params, await signIn(params, owner));
    expect(consent.text).toContain('Test agent');
    expect(consent.text).toContain(new URL(client.redirectUri).host);
    expect(consent.text).toContain('Solo shop');
    expect(consent.text).toContain(owner.email);
    for (const scope of agentScopes) {
      expect(consent.text).toMatch(
        new RegExp(`<input type="checkbox" id="([^"]+)" name="granted_scopes" value="${scope}" checked><label for="\\1"><code>${scope}</code> `),
      );
    }
    expect(consent.text).toContain('<button type="submit" name="decision" value="approve">Approve</button>');
    expect(consent.text).toContain('value="deny" class="secondary">Deny</button>');
    // The approval redirects to the client: the page's form-action lets the browser follow it there, and nowhere else.
    expect(consent.headers.get('content-security-policy')).toContain(`form-action 'self' ${new URL(client.redirectUri).origin};`);
  });

  it('offers a labelled choice of merchant to a person on several teams, and the code acts for the one chosen', async () => {
    const client = await publicClient();
    const owner = await merchantOwner('Alpha shop');
    const second = await createRootMerchant({ name: 'Beta shop', ownerEmail: owner.email, ownerPassword: PASSWORD, mode: 'test' });
    const { verifier, challenge } = pkce();
    const params = authorizationParams(client, challenge);
    const cookie = await signIn(params, owner);
    const consent = await consentPage(params, cookie);
    expect(consent.text).toContain('<label for="merchant">Merchant it acts for</label><select id="merchant" name="merchant_id" required>');
    expect(consent.text).toContain(`<option value="${owner.merchantId}">Alpha shop</option>`);
    expect(consent.text).toContain(`<option value="${second.merchantId}">Beta shop</option>`);
    const approved = await postForm(
      '/api/v1/oauth/authorize',
      { ...formFields(consent.text, 'consent'), merchant_id: second.merchantId, granted_scopes: ['merchant:read', 'product:read'], decision: 'approve' },
      { cookie },
    );
    const tokens = await exchange(client, redirectParams(approved).searchParams.get('code')!, verifier);
    expect(tokens.json.scope).toBe('merchant:read product:read');
    expect(await verifyOAuthAccessToken(tokens.json.access_token)).toMatchObject({ merchantId: second.merchantId, scopes: ['merchant:read', 'product:read'] });
  });

  /** A merchant's owner who signs in and denies `client` on the consent page: the answer and the request's parameters. */
  async function denyOnConsent(client: Awaited<ReturnType<typeof publicClient>>) {
    const params = authorizationParams(client, pkce().challenge);
    const cookie = await signIn(params, await merchantOwner());
    const consent = await consentPage(params, cookie);
    const answer = await postForm('/api/v1/oauth/authorize', { ...formFields(consent.text, 'consent'), decision: 'deny' }, { cookie });
    expect(answer.status).toBe(303);
    return { answer, params };
  }

  it('redirects a denial with access_denied, state and iss, and no code', async () => {
    const { answer, params } = await denyOnConsent(await publicClient());
    const location = redirectParams(answer);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The person denied access.',
      state: params.state,
      iss: origin,
    });
  });

  it("keeps the registered redirect URI's own query as written, adding the answer after it (RFC 6749 §3.1.2)", async () => {
    const registered = 'http://127.0.0.1:45999/callback?flag&next=%2Fa%20b&x=1;y=2';
    const { answer, params } = await denyOnConsent(await publicClient({ redirect_uris: [registered] }));
    const location = answer.headers.get('location')!;
    expect(location.startsWith(`${registered}&error=access_denied&`), location).toBe(true);
    expect(new URL(location).searchParams.get('state')).toBe(params.state);
  });

  it('redirects an approval with a code, state and iss (RFC 9207)', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { location, params, code } = await authorize(client, owner, pkce().challenge);
    expect(`${location.origin}${location.pathname}`).toBe(client.redirectUri);
    expect(code).toMatch(/^mor_ocd_[0-9a-f]{64}$/);
    expect(location.searchParams.get('state')).toBe(params.state);
    expect(location.searchParams.get('iss')).toBe(origin);
  });

  it('refuses a consent without the CSRF token of this session and request, from another origin, or without a session', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const params = authorizationParams(client, pkce().challenge);
    const cookie = await signIn(params, owner);
    const fields = { ...formFields((await consentPage(params, cookie)).text, 'consent'), decision: 'approve' };
    const forged = await postForm('/api/v1/oauth/authorize', { ...fields, csrf_token: 'f'.repeat(64) }, { cookie });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();
    expect(forged.text).toContain('This form has expired');
    // The token of one request does not approve another (another state).
    const other = await postForm('/api/v1/oauth/authorize', { ...fields, state: 'another-state' }, { cookie });
    expect(other.status).toBe(403);
    const foreign = await postForm('/api/v1/oauth/authorize', fields, { cookie, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('location')).toBeNull();
    const anonymous = await postForm('/api/v1/oauth/authorize', fields);
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toContain('Sign in again to continue');
    // A cookie of another person's session does not match the token either.
    const stranger = await merchantOwner();
    const strangerCookie = await signIn(params, stranger);
    expect((await postForm('/api/v1/oauth/authorize', fields, { cookie: strangerCookie })).status).toBe(403);
  });

  it('refuses an approval without a scope, with a scope it does not know, or for a merchant the person is not on the team of', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const elsewhere = await merchantOwner();
    const params = authorizationParams(client, pkce().challenge);
    const cookie = await signIn(params, owner);
    const fields = formFields((await consentPage(params, cookie)).text, 'consent');
    const none = await postForm('/api/v1/oauth/authorize', { ...fields, granted_scopes: undefined, decision: 'approve' }, { cookie });
    expect(none.status).toBe(400);
    expect(none.text).toContain('Choose at least one thing the app may do, or deny access.');
    expect(none.text).not.toMatch(/name="granted_scopes" value="[^"]+" checked/);
    const unknown = await postForm(
      '/api/v1/oauth/authorize',
      { ...fields, granted_scopes: ['merchant:read', 'payouts:write'], decision: 'approve' },
      { cookie },
    );
    expect(unknown.status).toBe(400);
    const foreign = await postForm('/api/v1/oauth/authorize', { ...fields, merchant_id: elsewhere.merchantId, decision: 'approve' }, { cookie });
    expect(foreign.status).toBe(400);
    expect(foreign.text).toContain('Choose one of the merchants you are on the team of.');
  });

  it('tells a person on no team that there is nothing to connect, and lets them go back (access_denied)', async () => {
    const client = await publicClient();
    const loner = await person();
    const params = authorizationParams(client, pkce().challenge);
    const cookie = await signIn(params, { email: loner.email, password: PASSWORD });
    const page = await consentPage(params, cookie);
    expect(page.text).toContain('No merchant account to connect');
    const back = await postForm('/api/v1/oauth/authorize', { ...formFields(page.text, 'consent'), decision: 'deny' }, { cookie });
    expect(redirectParams(back).searchParams.get('error')).toBe('access_denied');
  });

  it('signs the person out for "Use another account" and shows the sign-in page again', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const params = authorizationParams(client, pkce().challenge);
    const cookie = await signIn(params, owner);
    const out = await postForm('/api/v1/oauth/authorize', formFields((await consentPage(params, cookie)).text, 'sign_out'), { cookie });
    expect(out.status).toBe(303);
    expect(out.cookies[0]).toMatch(/^__Host-mor_oauth_session=; HttpOnly; Secure; SameSite=Lax; Path=\/; Max-Age=0$/);
    const again = await request('GET', authorizePath(params), { headers: { cookie } });
    expect(again.text).toContain('<button type="submit">Sign in</button>');
  });

  it('refuses a form whose hidden request was tampered with like the GET: an unregistered redirect URI is a page', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const params = authorizationParams(client, pkce().challenge);
    const cookie = await signIn(params, owner);
    const fields = formFields((await consentPage(params, cookie)).text, 'consent');
    const res = await postForm('/api/v1/oauth/authorize', { ...fields, redirect_uri: 'https://evil.example/cb', decision: 'approve' }, { cookie });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
  });
});

describe('the token endpoint', () => {
  it('exchanges a code for a Bearer access token (1 hour) and a refresh token, never cached, bound to the person, merchant, scopes and client', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(client, owner, challenge, { granted_scopes: ['merchant:read', 'checkout:read'] });
    const res = await exchange(client, code, verifier);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.json).toEqual({
      access_token: expect.stringMatching(/^mor_oat_test_otf_[0-9a-f]{24}_[0-9a-f]{64}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^mor_ort_test_otf_[0-9a-f]{24}_[0-9a-f]{64}$/),
      scope: 'merchant:read checkout:read',
    });
    const grant = await verifyOAuthAccessToken(res.json.access_token);
    expect(grant).toEqual({
      kind: 'oauth',
      tokenId: expect.stringMatching(/^oat_[0-9a-f]{24}$/),
      userId: owner.userId,
      merchantId: owner.merchantId,
      scopes: ['merchant:read', 'checkout:read'],
      expiresAt: expect.any(String),
      clientId: client.clientId,
    });
    const lifetime = Date.parse((grant as { expiresAt: string }).expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(3590_000);
    expect(lifetime).toBeLessThanOrEqual(3600_000);
    // The refresh token is not an access token.
    expect(await verifyOAuthAccessToken(res.json.refresh_token)).toBeNull();
  });

  it('refuses a wrong or missing code_verifier (PKCE), and the right one still redeems the code', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(client, owner, challenge);
    const wrong = await exchange(client, code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.json).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('code_verifier does not match') });
    const missing = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: client.redirectUri, client_id: client.clientId });
    expect(missing.json).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('code_verifier is required') });
    expect((await exchange(client, code, verifier)).status).toBe(200);
  });

  it('binds the code to its redirect URI, its client and its resource', async () => {
    const client = await publicClient();
    const other = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(client, owner, challenge);
    const redirect = await exchange({ ...client, redirectUri: `${client.redirectUri}x` }, code, verifier);
    expect(redirect.json.error).toBe('invalid_grant');
    const foreign = await exchange({ ...other, redirectUri: client.redirectUri }, code, verifier);
    expect(foreign.json).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('another client') });
    const resource = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      resource: 'https://elsewhere.example/api/mcp',
    });
    expect(resource.json.error).toBe('invalid_target');
    expect((await exchange(client, code, verifier)).status).toBe(200);
  });

  it('takes a code once: a second redemption is invalid_grant and revokes every token the first one issued', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(client, owner, challenge);
    const first = await exchange(client, code, verifier);
    expect(first.status).toBe(200);
    expect(await verifyOAuthAccessToken(first.json.access_token)).not.toBeNull();
    const second = await exchange(client, code, verifier);
    expect(second.status).toBe(400);
    expect(second.json).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('already used') });
    expect(await verifyOAuthAccessToken(first.json.access_token)).toBeNull();
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.json.refresh_token, client_id: client.clientId });
    expect(refreshed.json.error).toBe('invalid_grant');
  });

  it('issues once for two concurrent redemptions of one code, and the reuse revokes what was issued', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(client, owner, challenge);
    const answers = await Promise.all([exchange(client, code, verifier), exchange(client, code, verifier)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const issued = answers.find((a) => a.status === 200)!;
    expect(await verifyOAuthAccessToken(issued.json.access_token)).toBeNull();
  });

  it('refuses a code past its 60 seconds, and takes it at 59', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(client, owner, challenge);
    const request = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: client.redirectUri, client_id: client.clientId };
    const late = await issueTokens(request, undefined, new Date(Date.now() + 61_000)).catch((e: unknown) => e);
    expect(late).toMatchObject({ status: 400, code: 'invalid_grant', message: expect.stringContaining('expired') });
    const { code: code2 } = await authorize(client, owner, challenge);
    await expect(issueTokens({ ...request, code: code2 }, undefined, new Date(Date.now() + 55_000))).resolves.toMatchObject({ token_type: 'Bearer' });
  });

  it('rotates the refresh token on every use; reusing a spent one revokes the whole family', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(client, owner, challenge);
    const first = (await exchange(client, code, verifier)).json;
    const refresh = (token: string) => tokenRequest({ grant_type: 'refresh_token', refresh_token: token, client_id: client.clientId });
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.json.refresh_token).not.toBe(first.refresh_token);
    expect(second.json.access_token).not.toBe(first.access_token);
    expect(second.json.scope).toBe(first.scope);
    expect(await verifyOAuthAccessToken(second.json.access_token)).toMatchObject({ merchantId: owner.merchantId });
    // The first access token still works until it expires: only its refresh token was spent.
    expect(await verifyOAuthAccessToken(first.access_token)).not.toBeNull();
    const reuse = await refresh(first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.json).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('already used') });
    for (const token of [first.access_token, second.json.access_token]) expect(await verifyOAuthAccessToken(token)).toBeNull();
    expect((await refresh(second.json.refresh_token)).json.error).toBe('invalid_grant');
  });

  it('narrows the scope of a refreshed access token on request, never widens it', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(client, owner, challenge, { granted_scopes: ['merchant:read', 'product:read'] });
    const first = (await exchange(client, code, verifier)).json;
    const wider = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: client.clientId,
      scope: 'merchant:read checkout:write',
    });
    expect(wider.json.error).toBe('invalid_scope');
    const narrower = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: client.clientId, scope: 'product:read' });
    expect(narrower.json.scope).toBe('product:read');
    const next = await tokenRequest({ grant_type: 'refresh_token', refresh_token: narrower.json.refresh_token, client_id: client.clientId });
    expect(next.json.scope).toBe('merchant:read product:read');
  });

  it('refuses a refresh token of another client, and one whose 30 days are over', async () => {
    const client = await publicClient();
    const other = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const first = (await exchange(client, (await authorize(client, owner, challenge)).code, verifier)).json;
    const foreign = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: other.clientId });
    expect(foreign.json).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('another client') });
    const late = await issueTokens(
      { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: client.clientId },
      undefined,
      new Date(Date.now() + 31 * 86_400_000),
    ).catch((e: unknown) => e);
    expect(late).toMatchObject({ code: 'invalid_grant', message: expect.stringContaining('expired') });
  });

  it('gives no refresh token to a client that did not register the refresh_token grant', async () => {
    const client = await publicClient({ grant_types: ['authorization_code'] });
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const res = await exchange(client, (await authorize(client, owner, challenge)).code, verifier);
    expect(res.status).toBe(200);
    expect(res.json.refresh_token).toBeUndefined();
  });

  it('authenticates confidential clients the way they registered (Basic or post), and refuses anything else with 401 invalid_client', async () => {
    const owner = await merchantOwner();
    const basic = await registerClient({ redirect_uris: ['https://agent.example/cb'], grant_types: ['authorization_code', 'refresh_token'] });
    const client = { clientId: basic.json.client_id as string, redirectUri: 'https://agent.example/cb' };
    const secret = basic.json.client_secret as string;
    const { verifier, challenge } = pkce();
    const { code } = await authorize(client, owner, challenge);
    const fields = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: client.redirectUri };
    const basicHeader = (id: string, s: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(s)}`).toString('base64')}`;
    const wrong = await tokenRequest(fields, { authorization: basicHeader(client.clientId, `${secret}x`) });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe('invalid_client');
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic /);
    const noSecret = await tokenRequest({ ...fields, client_id: client.clientId });
    expect(noSecret.status).toBe(401);
    const posted = await tokenRequest({ ...fields, client_id: client.clientId, client_secret: secret });
    expect(posted.status).toBe(401);
    expect(posted.json.error_description).toContain('client_secret_basic');
    const ok = await tokenRequest(fields, { authorization: basicHeader(client.clientId, secret) });
    expect(ok.status, ok.text).toBe(200);

    const post = await registerClient({ redirect_uris: ['https://agent.example/cb'], token_endpoint_auth_method: 'client_secret_post' });
    const postClient = { clientId: post.json.client_id as string, redirectUri: 'https://agent.example/cb' };
    const pair = pkce();
    const code2 = (await authorize(postClient, owner, pair.challenge)).code;
    const fields2 = { grant_type: 'authorization_code', code: code2, code_verifier: pair.verifier, redirect_uri: postClient.redirectUri };
    expect((await tokenRequest(fields2, { authorization: basicHeader(postClient.clientId, post.json.client_secret) })).status).toBe(401);
    expect((await tokenRequest({ ...fields2, client_id: postClient.clientId, client_secret: post.json.client_secret })).status).toBe(200);

    const unknown = await tokenRequest({ ...fields, client_id: 'oac_00000000000000000000000000000000' });
    expect(unknown.status).toBe(401);
    expect((await tokenRequest({ grant_type: 'authorization_code', code })).status).toBe(401);
  });

  it('refuses other grant types, a missing one, repeated parameters and non-form bodies with the RFC 6749 error shape', async () => {
    const client = await publicClient();
    const other = await tokenRequest({ grant_type: 'client_credentials', client_id: client.clientId });
    expect(other.json).toEqual({ error: 'unsupported_grant_type', error_description: expect.any(String) });
    const none = await tokenRequest({ client_id: client.clientId });
    expect(none.json.error).toBe('invalid_request');
    const twice = await request('POST', '/api/v1/oauth/token', {
      body: `grant_type=authorization_code&grant_type=refresh_token&client_id=${client.clientId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(twice.status).toBe(400);
    expect(twice.json.error).toBe('invalid_request');
    const json = await request('POST', '/api/v1/oauth/token', { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(415);
    expect(json.json.error).toBe('invalid_request');
    const badCode = await tokenRequest({ grant_type: 'authorization_code', code: 'mor_ocd_nope', code_verifier: pkce().verifier, client_id: client.clientId });
    expect(badCode.json.error).toBe('invalid_grant');
  });
});

describe('what verifyOAuthAccessToken makes of a token', () => {
  it("answers 'expired' after the hour, null for the other deployment's tokens, placeholders and malformed tokens", async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(client, (await authorize(client, owner, challenge)).code, verifier)).json;
    expect(await verifyOAuthAccessToken(tokens.access_token, new Date(Date.now() + 3601_000))).toBe('expired');
    expect(await verifyOAuthAccessToken(tokens.access_token.replace('mor_oat_test_', 'mor_oat_live_'))).toBeNull();
    for (const token of [
      'mor_mcp_xxx',
      'mor_oat_xxx',
      '',
      `${tokens.access_token}0`,
      tokens.access_token.replace(/.$/, (c: string) => (c === '0' ? '1' : '0')),
    ]) {
      expect(await verifyOAuthAccessToken(token), token).toBeNull();
    }
  });

  it("refuses the tokens of a person removed from the merchant's team at once", async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const teammate = await person();
    await joinTeam(owner.merchantId, (await call('POST', '/v1/dashboard/sessions', { body: { email: owner.email, password: PASSWORD } })).json.token, teammate);
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(client, (await authorize(client, { email: teammate.email, password: PASSWORD }, challenge)).code, verifier)).json;
    expect(await verifyOAuthAccessToken(tokens.access_token)).toMatchObject({ userId: teammate.userId, merchantId: owner.merchantId });
    const left = await call('DELETE', `/v1/dashboard/merchants/${owner.merchantId}/members/${teammate.userId}`, { key: teammate.token });
    expect(left.status).toBe(204);
    expect(await verifyOAuthAccessToken(tokens.access_token)).toBeNull();
  });

  it('throws when the table cannot be read, so the MCP endpoint answers token_validation_unavailable rather than a 401', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(client, (await authorize(client, owner, challenge)).code, verifier)).json;
    const table = process.env.TABLE_NAME;
    process.env.TABLE_NAME = 'no-such-table';
    try {
      await expect(verifyOAuthAccessToken(tokens.access_token)).rejects.toThrow();
    } finally {
      process.env.TABLE_NAME = table;
    }
  });
});

describe('revocation (RFC 7009)', () => {
  const revoke = (fields: Record<string, string | undefined>, headers: Record<string, string> = {}) => postForm('/api/v1/oauth/revoke', fields, headers);

  it('revokes a refresh token and its whole family at once', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(client, (await authorize(client, owner, challenge)).code, verifier)).json;
    const res = await revoke({ token: tokens.refresh_token, token_type_hint: 'refresh_token', client_id: client.clientId });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(await verifyOAuthAccessToken(tokens.access_token)).toBeNull();
    expect((await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.clientId })).json.error).toBe(
      'invalid_grant',
    );
  });

  it('revokes an access token alone: the refresh token still gets a new pair', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(client, (await authorize(client, owner, challenge)).code, verifier)).json;
    expect((await revoke({ token: tokens.access_token, client_id: client.clientId })).status).toBe(200);
    expect(await verifyOAuthAccessToken(tokens.access_token)).toBeNull();
    const next = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.clientId });
    expect(next.status).toBe(200);
    expect(await verifyOAuthAccessToken(next.json.access_token)).not.toBeNull();
  });

  it("answers 200 for unknown and malformed tokens, and for another client's token, which it leaves valid", async () => {
    const client = await publicClient();
    const other = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const tokens = (await exchange(client, (await authorize(client, owner, challenge)).code, verifier)).json;
    for (const token of ['nope', `mor_ort_test_otf_${'0'.repeat(24)}_${'0'.repeat(64)}`, tokens.access_token.replace('_test_', '_live_')]) {
      expect((await revoke({ token, client_id: client.clientId })).status).toBe(200);
    }
    expect((await revoke({ token: tokens.refresh_token, client_id: other.clientId })).status).toBe(200);
    expect(await verifyOAuthAccessToken(tokens.access_token)).not.toBeNull();
  });

  it('needs the client (401 invalid_client) and the token (400 invalid_request)', async () => {
    const client = await publicClient();
    expect((await revoke({ token: 'x' })).json.error).toBe('invalid_client');
    expect((await revoke({ client_id: client.clientId })).json).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('token') });
  });
});
