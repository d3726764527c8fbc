/**
 * The authorization endpoint is no open redirector (RFC 9700 §4.11.2): anyone may register a client with any
 * redirect URI, so until the person has consented, every problem of an authorization request is an error page on
 * the platform (400, the pages' CSP, no `Location`) that names the client and what is wrong — over the GET and over
 * the pages' forms alike. Only the consent form's answer goes back to the registered redirect URI (`access_denied`).
 */
import { describe, expect, it } from 'vitest';
import {
  type Answer,
  authorizationParams,
  authorizePath,
  consentPage,
  formFields,
  merchantOwner,
  origin,
  pkce,
  postForm,
  registerClient,
  request,
  signIn,
} from '../support.ts';

/** Where the finding's client sends people: registered by anyone, so never a target before consent. */
const EVIL = 'https://evil.example/landing';

/** A public client registered with `redirect_uris` (the attacker's landing page unless told otherwise). */
async function clientNamed(name: string | undefined, redirectUris: readonly string[] = [EVIL]) {
  const res = await registerClient({
    ...(name === undefined ? {} : { client_name: name }),
    redirect_uris: redirectUris,
    token_endpoint_auth_method: 'none',
  });
  expect(res.status, res.text).toBe(201);
  return { clientId: res.json.client_id as string, redirectUri: redirectUris[0]! };
}

/** The answer is the platform's error page: 400, HTML under the pages' CSP, no redirect and no hint of one. */
function expectErrorPage(res: Answer) {
  expect(res.status, res.text).toBe(400);
  expect(res.headers.get('location')).toBeNull();
  expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const csp = res.headers.get('content-security-policy');
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("form-action 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
  expect(res.text).toContain('<title>This link cannot be used</title>');
  expect(res.text).not.toContain('evil.example');
}

/** Every problem the endpoint refuses before consent: the request's changes, the error code and what the page says. */
const preConsentErrors: Array<[string, Record<string, string | undefined>, string, RegExp]> = [
  ['response_type token (the finding)', { response_type: 'token' }, 'unsupported_response_type', /Only response_type=code is supported/],
  ['no response_type', { response_type: undefined }, 'invalid_request', /response_type is required/],
  ['no code_challenge', { code_challenge: undefined }, 'invalid_request', /code_challenge is required/],
  ['a code_challenge that is no S256 hash', { code_challenge: 'short' }, 'invalid_request', /code_challenge must be the base64url SHA-256/],
  ['code_challenge_method plain', { code_challenge_method: 'plain' }, 'invalid_request', /code_challenge_method must be S256/],
  ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request', /code_challenge_method must be S256/],
  ['another resource', { resource: 'https://elsewhere.example/api/mcp' }, 'invalid_target', /resource must be .*\/api\/mcp/],
  ['an unregistered redirect_uri', { redirect_uri: `${EVIL}/other` }, 'invalid_request', /is not one it registered/],
];

describe('authorization errors before consent: a page on the platform, never a redirect', () => {
  it.each(preConsentErrors)('GET with %s: 400 page naming the client and the problem', async (_, extra, error, problem) => {
    const client = await clientNamed('Landing agent');
    const res = await request('GET', authorizePath(authorizationParams(client, pkce().challenge, extra)));
    expectErrorPage(res);
    expect(res.text).toContain('<strong>Landing agent</strong> sent you here');
    expect(res.text).toContain(`client <code>${client.clientId}</code>, error <code>${error}</code>`);
    expect(res.text).toMatch(problem);
  });

  it('names a client that registered several redirect URIs and a request naming none', async () => {
    const client = await clientNamed('Two homes', [EVIL, 'https://evil.example/other']);
    const res = await request('GET', authorizePath(authorizationParams(client, pkce().challenge, { redirect_uri: undefined })));
    expectErrorPage(res);
    expect(res.text).toContain('<strong>Two homes</strong>');
    expect(res.text).toContain('the app registered several');
  });

  it('escapes the registered name: <script>x</script> is text, not markup', async () => {
    const client = await clientNamed('<script>x</script>');
    const res = await request('GET', authorizePath(authorizationParams(client, pkce().challenge, { response_type: 'token' })));
    expectErrorPage(res);
    expect(res.text).toContain('<strong>&lt;script&gt;x&lt;/script&gt;</strong>');
    expect(res.text).not.toContain('<script>');
  });

  it('says a client gave no name, and still gives its id', async () => {
    const client = await clientNamed(undefined);
    const res = await request('GET', authorizePath(authorizationParams(client, pkce().challenge, { code_challenge_method: 'plain' })));
    expectErrorPage(res);
    expect(res.text).toContain('An app that did not give its name sent you here');
    expect(res.text).toContain(`client <code>${client.clientId}</code>`);
  });

  it('keeps the page of an unknown client, which names no client', async () => {
    const params = authorizationParams({ clientId: 'oac_00000000000000000000000000000000', redirectUri: EVIL }, pkce().challenge, { response_type: 'token' });
    const res = await request('GET', authorizePath(params));
    expectErrorPage(res);
    expect(res.text).toContain('unknown client_id');
    expect(res.text).not.toContain('sent you here with a request');
  });

  it('shows the page, not a redirect, for the sign-in and consent forms when their hidden request was tampered with', async () => {
    const client = await clientNamed('Form agent');
    const owner = await merchantOwner();
    const params = authorizationParams(client, pkce().challenge);
    const signInForm = formFields((await request('GET', authorizePath(params))).text, 'sign_in');
    const signInAnswer = await postForm('/api/v1/oauth/authorize', {
      ...signInForm,
      response_type: 'token',
      email: owner.email,
      password: owner.password,
    });
    expectErrorPage(signInAnswer);
    expect(signInAnswer.text).toContain('<strong>Form agent</strong>');
    expect(signInAnswer.text).toContain('error <code>unsupported_response_type</code>');

    const cookie = await signIn(params, owner);
    const consentForm = formFields((await consentPage(params, cookie)).text, 'consent');
    for (const tampered of [{ code_challenge_method: 'plain' }, { resource: 'https://elsewhere.example/api/mcp' }]) {
      for (const decision of ['approve', 'deny']) {
        const res = await postForm('/api/v1/oauth/authorize', { ...consentForm, ...tampered, decision }, { cookie });
        expectErrorPage(res);
        expect(res.text).toContain('<strong>Form agent</strong>');
      }
    }
  });
});

describe('after consent: the answer goes back to the registered redirect URI', () => {
  it('redirects a denial there with access_denied, state and iss', async () => {
    const client = await clientNamed('Denied agent');
    const owner = await merchantOwner();
    const params = authorizationParams(client, pkce().challenge);
    const cookie = await signIn(params, owner);
    const consent = await consentPage(params, cookie);
    const denied = await postForm('/api/v1/oauth/authorize', { ...formFields(consent.text, 'consent'), decision: 'deny' }, { cookie });
    expect(denied.status).toBe(303);
    const location = new URL(denied.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(EVIL);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'The person denied access.',
      state: params.state,
      iss: origin,
    });
  });
});
