/**
 * Helpers of the OAuth tests: the authorization server driven over HTTP the way a browser and an MCP client drive
 * it (forms posted as a browser posts them, redirects read rather than followed), every answer checked against its
 * route's contract.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, inject } from 'vitest';
import { checkContractAt } from '../support/contract.ts';
import { createRootMerchant } from '../../shared/people/merchants.service.ts';
import { PASSWORD, uniqueEmail } from '../support/fixtures.ts';
import { fetchFrom } from '../support/loopback-source.ts';

export const origin = new URL(inject('baseUrl')).origin;
export const mcpResource = `${origin}/api/mcp`;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
  /** The `Set-Cookie` headers. */
  cookies: string[];
}

/**
 * `method path` from the origin's root, contract-checked; a redirect is answered, not followed. `from`: another
 * loopback address to send it from (test/support/loopback-source.ts).
 */
export async function request(method: string, path: string, init: { body?: string; headers?: Record<string, string>; from?: string } = {}): Promise<Answer> {
  const res = init.from
    ? await fetchFrom(init.from)(`${origin}${path}`, { method, body: init.body, headers: init.headers })
    : await fetch(`${origin}${path}`, { method, body: init.body, headers: init.headers, redirect: 'manual' });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // a page
  }
  checkContractAt(method, path, res.status, json, text, res.headers.get('content-type'), res.headers);
  return { status: res.status, headers: res.headers, text, json, cookies: res.headers.getSetCookie() };
}

/**
 * A form post (`application/x-www-form-urlencoded`) from a page of this origin, as a browser sends it (its `Origin`,
 * which `headers` may replace or, set to `undefined`, leave out); a field given a list is sent once per value.
 */
export function postForm(
  path: string,
  fields: Record<string, string | readonly string[] | undefined>,
  headers: Record<string, string | undefined> = {},
  from?: string,
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const v of typeof value === 'string' ? [value] : value) body.append(name, v);
  }
  const sent = Object.entries({ 'content-type': 'application/x-www-form-urlencoded', origin, ...headers }).filter(
    (e): e is [string, string] => e[1] !== undefined,
  );
  return request('POST', path, { body: body.toString(), headers: Object.fromEntries(sent), ...(from ? { from } : {}) });
}

export const registerClient = (metadata: Record<string, unknown>) =>
  request('POST', '/api/v1/oauth/register', { body: JSON.stringify(metadata), headers: { 'content-type': 'application/json' } });

/** A registered public client with one loopback redirect URI (nothing listens there: redirects are read, not followed). */
export async function publicClient(extra: Record<string, unknown> = {}) {
  const redirectUri = `http://127.0.0.1:45${Math.floor(Math.random() * 900 + 100)}/callback`;
  const res = await registerClient({
    client_name: 'Test agent',
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    ...extra,
  });
  expect(res.status, res.text).toBe(201);
  return { clientId: res.json.client_id as string, redirectUri: res.json.redirect_uris[0] as string, secret: res.json.client_secret as string | undefined };
}

/** A PKCE verifier and its S256 challenge. */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The path of an authorization request. */
export const authorizePath = (params: Record<string, string | undefined>) =>
  `/api/v1/oauth/authorize?${new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined))}`;

/** A complete, valid authorization request's parameters for `client`. */
export function authorizationParams(client: { clientId: string; redirectUri: string }, challenge: string, extra: Record<string, string | undefined> = {}) {
  return {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: `st-${randomBytes(6).toString('hex')}`,
    resource: mcpResource,
    scope: 'merchant:read',
    ...extra,
  };
}

/** Every `<input>` of a page's form (the first form whose `action` field has `action`), as a browser would post it. */
export function formFields(html: string, action: string): Record<string, string | string[]> {
  const forms = [...html.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].map((m) => m[1]!);
  const form = forms.find((f) => f.includes(`name="action" value="${action}"`));
  if (!form) throw new Error(`no ${action} form on the page:\n${html}`);
  const fields: Record<string, string | string[]> = {};
  for (const [tag] of form.matchAll(/<input[^>]*>/g)) {
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
    const name = attr('name');
    if (!name) continue;
    if (attr('type') === 'checkbox' && !/\schecked(\s|>)/.test(tag)) continue;
    const value = htmlText(attr('value') ?? '');
    const before = fields[name];
    fields[name] = before === undefined ? value : [...[before].flat(), value];
  }
  const select = /<select[^>]*name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/.exec(form);
  if (select) {
    const selected = /<option value="([^"]*)" selected>/.exec(select[2]!) ?? /<option value="([^"]*)"/.exec(select[2]!);
    fields[select[1]!] = htmlText(selected![1]!);
  }
  return fields;
}

const htmlText = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The `name=value` of the OAuth session cookie of a sign-in answer. */
export const sessionCookieOf = (answer: Answer): string => {
  const cookie = answer.cookies.find((c) => c.startsWith('__Host-mor_oauth_session='));
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0]!;
};

/** A person who owns a merchant (made the way the operator CLI makes it), with their e-mail and password. */
export async function merchantOwner(name = 'Agent shop') {
  const email = uniqueEmail('owner');
  const merchant = await createRootMerchant({ name, ownerEmail: email, ownerPassword: PASSWORD, mode: 'test' });
  return { email, password: PASSWORD, merchantId: merchant.merchantId, userId: merchant.ownerUserId, apiKey: merchant.apiKey };
}

/** Signs `person` in on the sign-in page of `params`; answers the session cookie. */
export async function signIn(params: Record<string, string | undefined>, person: { email: string; password: string }) {
  const page = await request('GET', authorizePath(params));
  expect(page.status, page.text).toBe(200);
  const signedIn = await postForm('/api/v1/oauth/authorize', { ...formFields(page.text, 'sign_in'), email: person.email, password: person.password });
  expect(signedIn.status, signedIn.text).toBe(303);
  return sessionCookieOf(signedIn);
}

/** The consent page of `params` for the signed-in `cookie`. */
export async function consentPage(params: Record<string, string | undefined>, cookie: string) {
  const page = await request('GET', authorizePath(params), { headers: { cookie } });
  expect(page.status, page.text).toBe(200);
  return page;
}

/** Sign in, consent with what the page preselects (or `override`), and answer the redirect's parameters. */
export async function authorize(
  client: { clientId: string; redirectUri: string },
  person: { email: string; password: string },
  challenge: string,
  override: Record<string, string | string[]> = {},
  extra: Record<string, string | undefined> = {},
) {
  const params = authorizationParams(client, challenge, extra);
  const cookie = await signIn(params, person);
  const consent = await consentPage(params, cookie);
  const answer = await postForm('/api/v1/oauth/authorize', { ...formFields(consent.text, 'consent'), decision: 'approve', ...override }, { cookie });
  expect(answer.status, answer.text).toBe(303);
  const location = new URL(answer.headers.get('location')!);
  return { location, params, code: location.searchParams.get('code')!, cookie };
}

/** A token request (form) with the given fields and headers. */
export const tokenRequest = (fields: Record<string, string | undefined>, headers: Record<string, string> = {}) =>
  postForm('/api/v1/oauth/token', fields, headers);

/** The authorization code exchanged for tokens by a public client. */
export async function exchange(client: { clientId: string; redirectUri: string }, code: string, verifier: string) {
  return tokenRequest({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: client.redirectUri,
    client_id: client.clientId,
    resource: mcpResource,
  });
}

/** A local HTTP server answering every request with `answer` (status, content type and body), until closed. */
export async function documentServer(answer: (url: string) => { status?: number; type?: string; body: string }) {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    const a = answer(`http://127.0.0.1:${(server.address() as AddressInfo).port}${req.url}`);
    res.writeHead(a.status ?? 200, { 'content-type': a.type ?? 'application/json' });
    res.end(a.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
