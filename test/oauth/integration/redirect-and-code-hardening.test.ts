/**
 * Hardenings, over HTTP through the local gateway: the dashboard's sign-in form follows `next`, and an error page
 * leads back to its `Referer`, only when it resolves (as a browser resolves it) to a dashboard or join page of this
 * origin; and a spent authorization code
 * presented by a client other than its own is refused without revoking the grant of the client it was issued to.
 */
import { describe, expect, it } from 'vitest';
import { verifyOAuthAccessToken } from '../../../shared/oauth/access-tokens.service.ts';
import { PASSWORD, person } from '../../support/fixtures.ts';
import { initializeMessage, rawMcp } from '../../agents/support.ts';
import {
  authorizationParams,
  authorizePath,
  authorize,
  exchange,
  merchantOwner,
  origin,
  pkce,
  postForm,
  publicClient,
  request,
  tokenRequest,
} from '../support.ts';

/** Signs `email` in on the dashboard's sign-in form with `next`; answers where the 303 goes. */
async function signInWithNext(email: string, next: string): Promise<string | null> {
  const answer = await postForm('/dashboard/sign-in', { email, password: PASSWORD, next }, { origin });
  expect(answer.status, answer.text).toBe(303);
  return answer.headers.get('location');
}

describe('the sign-in form’s next', () => {
  const hostile = [
    '/dashboard/../api/v1/oauth/authorize?response_type=code&client_id=x',
    '/dashboard/./../api/v1/oauth/authorize',
    '/dashboard/%2e%2e/api/v1/oauth/authorize',
    '/dashboard/%2E%2E/api/v1/oauth/authorize',
    '/dashboard/.%2e/api/v1/oauth/authorize',
    '/dashboard/..%2fapi/v1/oauth/authorize',
    '/dashboard/..%2Fapi/v1/oauth/authorize',
    '/dashboard/%2e%2e%2fapi/v1/oauth/authorize',
    '/dashboard/..%252fapi/v1/oauth/authorize',
    '/dashboard/..%5capi/v1/oauth/authorize',
    '/dashboard\\..\\api/v1/oauth/authorize',
    '/join/../api/v1/oauth/authorize',
    '/\\evil.example/dashboard',
    '\\\\evil.example/dashboard',
    '//evil.example/dashboard',
    `${origin}//evil.example/dashboard`,
    `${origin}/\\evil.example/dashboard`,
    'https://evil.example/dashboard',
    `${origin}.evil.example/dashboard`,
    'javascript:alert(1)//dashboard',
    '/dashboardx',
    '/api/v1/oauth/authorize',
    '%2fdashboard%2f..%2fapi',
    // The customer portal is no dashboard page: a sign-in link may not land a merchant's person on a customer's link.
    '/portal/assets/portal.js',
    '/portal/00000000-0000-4000-8000-000000000000/subscriptions',
    '/dashboard/../portal/00000000-0000-4000-8000-000000000000/link/x',
    // A path of `//` names a host left empty: no address a browser could go to (these once answered 500).
    './/',
    '%2e//',
    './\\',
    `${origin}//`,
  ];

  it('sends every hostile next to the dashboard instead', async () => {
    const { email } = await person();
    for (const next of hostile) {
      expect(await signInWithNext(email, next), next).toBe(`${origin}/dashboard`);
    }
  });

  it('keeps a next that stays on a dashboard or join page of this origin', async () => {
    const { email } = await person();
    const good: [string, string][] = [
      ['/dashboard/payments', '/dashboard/payments'],
      ['/dashboard', '/dashboard'],
      ['/dashboard/payments?status=failed', '/dashboard/payments?status=failed'],
      ['/dashboard/customers/../payments', '/dashboard/payments'],
      [`${origin}/dashboard/payments`, '/dashboard/payments'],
      [`/join/${'0'.repeat(64)}`, `/join/${'0'.repeat(64)}`],
    ];
    for (const [next, path] of good) {
      expect(await signInWithNext(email, next), next).toBe(`${origin}${path}`);
    }
  });
});

describe('the error page’s way back', () => {
  it('leads back to the page it came from, and never off this origin, whatever the Referer says', async () => {
    const backLink = async (referer: string) => {
      const res = await fetch(`${origin}/dashboard/no-such-page`, { headers: { referer } });
      expect(res.status).toBe(404);
      return /<a href="([^"]*)">Back to the/.exec(await res.text())?.[1];
    };
    expect(await backLink(`${origin}/dashboard/payments`)).toBe('/dashboard/payments');
    for (const referer of [
      `${origin}//evil.example/dashboard`,
      `${origin}/\\evil.example/dashboard`,
      `${origin}//evil.example/join/x`,
      `${origin}//`,
      `${origin}/.//`,
    ]) {
      expect(await backLink(referer), referer).toBe('/dashboard');
    }
  });
});

describe('an authorization request that sends a parameter twice', () => {
  it('is refused on the error page, never answered with the values joined (RFC 6749 §3.1), whichever parameter it is', async () => {
    const client = await publicClient();
    const params = authorizationParams(client, pkce().challenge);
    const valid = await request('GET', authorizePath(params));
    expect(valid.status).toBe(200);
    for (const [name, again] of [
      ['state', 'b'],
      ['scope', 'mcp'],
      ['state', params.state],
      ['redirect_uri', params.redirect_uri],
    ] as const) {
      const refused = await request('GET', `${authorizePath(params)}&${name}=${encodeURIComponent(again)}`);
      expect(refused.status, name).toBe(400);
      expect(refused.headers.get('location'), name).toBeNull();
      expect(refused.text, name).toContain(`sends ${name} more than once`);
    }
  });
});

describe('an authorization form that sends a parameter twice', () => {
  it('is refused on the error page too, whichever the parameter, and issues nothing', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { challenge } = pkce();
    const params = authorizationParams(client, challenge);
    for (const name of ['state', 'redirect_uri'] as const) {
      const refused = await postForm('/api/v1/oauth/authorize', {
        ...params,
        [name]: [params[name]!, params[name]!],
        action: 'sign_in',
        email: owner.email,
        password: owner.password,
      });
      expect(refused.status, name).toBe(400);
      expect(refused.headers.get('location'), name).toBeNull();
      expect(refused.cookies, name).toEqual([]);
    }
  });
});

describe('an authorization request that sends a parameter empty', () => {
  it('treats it as omitted (RFC 6749 §3.1): an empty redirect_uri is the one registered, an empty state is not sent back', async () => {
    const client = await publicClient();
    const owner = await merchantOwner();
    const { challenge, verifier } = pkce();
    const page = await request('GET', authorizePath({ ...authorizationParams(client, challenge), redirect_uri: '', resource: '' }));
    expect(page.status, page.text).toBe(200);
    const { location, code } = await authorize(client, owner, challenge, {}, { state: '', redirect_uri: '', resource: '' });
    expect(`${location.origin}${location.pathname}`).toBe(client.redirectUri);
    expect(location.searchParams.get('code')).toBeTruthy();
    expect(location.searchParams.has('state')).toBe(false);
    // The token endpoint too: an empty redirect_uri and resource are left out, not compared.
    const tokens = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: '',
      resource: '',
      client_id: client.clientId,
    });
    expect(tokens.status, tokens.text).toBe(200);
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: tokens.json.refresh_token,
      resource: '',
      scope: '',
      client_id: client.clientId,
    });
    expect(refreshed.status, refreshed.text).toBe(200);
  });
});

describe('a spent authorization code presented again', () => {
  it('by another client with a junk verifier is invalid_grant and leaves the real client’s grant alone', async () => {
    const a = await publicClient();
    const b = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(a, owner, challenge);
    const issued = await exchange(a, code, verifier);
    expect(issued.status, issued.text).toBe(200);

    for (const presenter of [{ ...b, redirectUri: a.redirectUri }, b]) {
      const foreign = await exchange(presenter, code, pkce().verifier);
      expect(foreign.status).toBe(400);
      expect(foreign.json).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('another client') });
    }
    // The owning client with a wrong verifier cannot revoke either.
    const junk = await exchange(a, code, pkce().verifier);
    expect(junk.json).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('code_verifier does not match') });

    expect(await verifyOAuthAccessToken(issued.json.access_token)).not.toBeNull();
    expect((await rawMcp(issued.json.access_token, initializeMessage)).status).toBe(200);
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: issued.json.refresh_token, client_id: a.clientId });
    expect(refreshed.status, refreshed.text).toBe(200);
  });

  it('by its own client with its verifier still revokes every token the code issued', async () => {
    const a = await publicClient();
    const owner = await merchantOwner();
    const { verifier, challenge } = pkce();
    const { code } = await authorize(a, owner, challenge);
    const issued = await exchange(a, code, verifier);
    expect(issued.status, issued.text).toBe(200);

    const reused = await exchange(a, code, verifier);
    expect(reused.status).toBe(400);
    expect(reused.json).toEqual({ error: 'invalid_grant', error_description: expect.stringContaining('already used') });
    expect(await verifyOAuthAccessToken(issued.json.access_token)).toBeNull();
    expect((await rawMcp(issued.json.access_token, initializeMessage)).status).toBe(401);
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: issued.json.refresh_token, client_id: a.clientId });
    expect(refreshed.json.error).toBe('invalid_grant');
  });
});
