/**
 * The authorization endpoint (RFC 6749 §3.1, §4.1; OAuth 2.1): `GET /api/v1/oauth/authorize` checks the request
 * and shows the sign-in or the consent page; `POST /api/v1/oauth/authorize` takes those pages' forms (sign in, use
 * another account, approve or deny).
 *
 * The request is checked in two steps. First the client and its redirect URI: an unknown client, or a redirect URI
 * it did not register (matched exactly), is refused (RFC 6749 §4.1.2.1). Then everything else: `response_type` must
 * be `code`; PKCE is required with `S256` (`plain` or no challenge is refused); `resource` (RFC 8707), when given,
 * must be this deployment's MCP endpoint. `scope` is only a hint: the consent page offers every scope, all checked.
 * Every one of these refusals is an error page (400) naming the client and the problem, and NEVER a redirect: anyone
 * may register a client with any redirect URI, so redirecting before the person has consented would make this
 * platform's host an open redirector (RFC 9700 §4.11.2). Only the consent form's answer goes back to the client:
 * the code, or `error=access_denied`, with `state` and `iss` (RFC 9207).
 *
 * The person signs in with their dashboard e-mail and password (the dashboard's sign-in, its throttling included).
 * That starts a session of its own (an hour), which works on these pages only, never as a dashboard session; it
 * lives in a cookie under the dashboard's rules (`__Host-mor_oauth_session`: HttpOnly, Secure, SameSite=Lax, Path=/).
 * Approving posts `merchant_id` and `granted_scopes` with a CSRF token bound to the session and to the
 * authorization request; the redirect then carries a 60-second, single-use `code`, `state` and `iss`. Every form is
 * held to the dashboard's same-origin rule (`page-guard.ts`): its `Origin` must be this origin, or without one the
 * browser must say `Sec-Fetch-Site: same-origin`; anything else is refused before any credential is read.
 */
import * as v from 'valibot';
import { agentScopes, isAgentScope, type AgentScope } from '../domain/agent-scopes.ts';
import { DomainError } from '../domain/errors.ts';
import { safeEqual, sha256Hex } from '../domain/secrets.ts';
import { config } from '../platform/config.ts';
import { fromOwnOrigin } from '../platform/http/page-guard.ts';
import { cookieValue, OAUTH_SESSION_COOKIE } from '../platform/http/session-cookie.ts';
import type { Reply } from '../platform/http/types.ts';
import { signInRequest } from '../people/dashboard.schemas.ts';
import { merchantsOfUser, getUser, sessionCookieOf, sessionOfToken, signIn, signOut, type SessionPrincipal } from '../people/index.ts';
import { clientForAuthorization, type AuthorizingClient } from './clients.service.ts';
import { putNewCode } from './codes.repository.ts';
import {
  CODE_TTL_SECONDS,
  isS256Challenge,
  mcpResourceOf,
  newAuthorizationCode,
  OAUTH_PATHS,
  redirectOriginOf,
  redirectUriRegistered,
  verifierOf,
} from './oauth.rules.ts';
import { consentPage, errorPage, type ErrorPage, noMerchantPage, pageCsp, pageHeaders, REFERRER_POLICY, signInPage } from './pages.ts';

/** The parameters of an authorization request (query or form fields); anything else is ignored. */
type Params = Readonly<Record<string, unknown>>;

/** The authorization request's own parameters, carried from page to page in hidden fields. */
const requestParameters = ['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'resource'] as const;

/** A parameter's value: a string, or undefined (absent, sent several times, or sent empty: RFC 6749 §3.1 treats that as omitted). */
const param = (p: Params, name: string): string | undefined => (typeof p[name] === 'string' && p[name] !== '' ? (p[name] as string) : undefined);

interface AuthorizationRequest {
  client: AuthorizingClient;
  redirectUri: string;
  redirectUriGiven: boolean;
  state: string | undefined;
  codeChallenge: string;
  resource: string;
  /** The request's parameters as received, for the pages' hidden fields and the redirect after sign-in. */
  fields: Record<string, string | undefined>;
}

const page = (status: number, html: string, csp = pageCsp('self'), extra: Record<string, string> = {}, cookies?: string[]): Reply => ({
  status,
  body: html,
  headers: { ...pageHeaders(csp), ...extra },
  ...(cookies ? { cookies } : {}),
});

const refusalPage = (status: number, message: string, about: Omit<ErrorPage, 'message'> = {}): Reply =>
  page(status, errorPage({ message, ...about }), pageCsp('none'));

const redirect = (status: 302 | 303, location: string, cookies?: string[]): Reply => ({
  status,
  headers: { location, 'referrer-policy': REFERRER_POLICY },
  ...(cookies ? { cookies } : {}),
});

/**
 * The client's redirect URI with the answer's parameters, `state` (when the request had one) and `iss` (RFC 9207)
 * added after its own query, which is kept as registered (RFC 6749 §3.1.2), not re-encoded as a form.
 */
function backToClient(redirectUri: string, state: string | undefined, answer: Record<string, string>): string {
  const url = new URL(redirectUri);
  const added = new URLSearchParams({ ...answer, ...(state !== undefined ? { state } : {}), iss: config.publicOrigin }).toString();
  url.search = url.search ? `${url.search.slice(1)}&${added}` : added;
  return url.href;
}

/**
 * The request checked, or the error page that refuses it (never a redirect: the person has not consented yet).
 * Once the client is known, the page names it and the RFC 6749 error code its developer looks for.
 */
async function checkRequest(p: Params): Promise<{ request: AuthorizationRequest } | { refusal: Reply }> {
  const clientId = param(p, 'client_id');
  if (!clientId) return { refusal: refusalPage(400, 'The link names no app: it has no client_id.') };
  const found = await clientForAuthorization(clientId);
  if ('problem' in found) return { refusal: refusalPage(400, found.problem) };
  const { client } = found;
  const refuse = (error: string, description: string) => ({ refusal: refusalPage(400, description, { client: { name: client.name, id: client.id }, error }) });
  const given = param(p, 'redirect_uri');
  if (given !== undefined && !redirectUriRegistered(given, client.redirectUris)) {
    return refuse('invalid_request', 'The address the app asked to send you back to (redirect_uri) is not one it registered.');
  }
  if (given === undefined && client.redirectUris.length !== 1) {
    return refuse('invalid_request', 'The link names no address to send you back to (redirect_uri), and the app registered several.');
  }
  const redirectUri = given ?? client.redirectUris[0]!;
  const state = param(p, 'state');
  const responseType = param(p, 'response_type');
  if (!responseType) return refuse('invalid_request', 'response_type is required: code.');
  if (responseType !== 'code') return refuse('unsupported_response_type', 'Only response_type=code is supported.');
  const challenge = param(p, 'code_challenge');
  if (!challenge) return refuse('invalid_request', 'code_challenge is required: PKCE with code_challenge_method=S256.');
  if (param(p, 'code_challenge_method') !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256 (plain is not supported).');
  if (!isS256Challenge(challenge)) return refuse('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier (43 characters).');
  const resource = mcpResourceOf(config.publicOrigin);
  const askedResource = param(p, 'resource');
  if (askedResource !== undefined && askedResource !== resource) return refuse('invalid_target', `resource must be ${resource}, this platform's MCP server.`);
  const fields = Object.fromEntries(requestParameters.map((name) => [name, param(p, name)]));
  return { request: { client, redirectUri, redirectUriGiven: given !== undefined, state, codeChallenge: challenge, resource, fields } };
}

/** The session token of the request's OAuth session cookie. */
const sessionTokenOf = (cookies: readonly string[]): string | undefined => cookieValue(cookies, OAUTH_SESSION_COOKIE);

/** The CSRF token of the consent form: bound to the session (its secret token) and to the authorization request. */
const csrfTokenOf = (sessionToken: string, r: AuthorizationRequest): string =>
  sha256Hex(`oauth-consent:${sessionToken}:${JSON.stringify([r.client.id, r.redirectUri, r.state ?? null, r.codeChallenge, r.resource])}`);

const clientView = (r: AuthorizationRequest) => ({
  name: r.client.name,
  redirectHost: new URL(r.redirectUri).host,
  id: r.client.id,
  fromMetadataDocument: r.client.fromMetadataDocument,
});

/** The authorization endpoint itself (the GET), where a person signs in again after `Use another account`. */
const authorizeUrlOf = (r: AuthorizationRequest): string =>
  `${config.publicOrigin}${OAUTH_PATHS.authorize}?${new URLSearchParams(Object.entries(r.fields).filter((e): e is [string, string] => e[1] !== undefined))}`;

function signInAnswer(r: AuthorizationRequest, status: number, form: { email?: string; error?: string } = {}, extraHeaders: Record<string, string> = {}) {
  return page(status, signInPage({ client: clientView(r), request: r.fields, ...form }), pageCsp('self'), extraHeaders);
}

interface Signed {
  principal: SessionPrincipal;
  token: string;
}

async function consentAnswer(
  r: AuthorizationRequest,
  session: Signed,
  status: number,
  form: { merchantId?: string; checked?: readonly AgentScope[]; error?: string } = {},
): Promise<Reply> {
  const [user, memberships] = await Promise.all([getUser(session.principal.userId), merchantsOfUser(session.principal.userId)]);
  const common = { client: clientView(r), request: r.fields, csrfToken: csrfTokenOf(session.token, r), email: user?.email ?? '' };
  const csp = pageCsp('self', [redirectOriginOf(r.redirectUri)]);
  if (memberships.length === 0) return page(status, noMerchantPage(common), csp);
  return page(
    status,
    consentPage({
      ...common,
      merchants: memberships.map((m) => ({ id: m.merchant.id, name: m.merchant.name })),
      ...(form.merchantId ? { selectedMerchantId: form.merchantId } : {}),
      scopes: agentScopes,
      checked: form.checked ?? agentScopes,
      ...(form.error ? { error: form.error } : {}),
    }),
    csp,
  );
}

async function sessionOf(cookies: readonly string[], now: Date): Promise<Signed | null> {
  const token = sessionTokenOf(cookies);
  const principal = token ? await sessionOfToken(token, now, 'oauth') : null;
  return principal && token ? { principal, token } : null;
}

/**
 * The first of the request's parameters that `rawQuery` (the query string as sent) holds more than once: the gateway
 * joins a repeated query parameter's values with commas, so only the raw query shows the repeat.
 */
const repeatedParameter = (rawQuery: string): string | undefined => {
  const names = [...new URLSearchParams(rawQuery).keys()];
  return requestParameters.find((name) => names.indexOf(name) !== names.lastIndexOf(name));
};

/**
 * `GET /api/v1/oauth/authorize`: the request checked, then the sign-in page or (signed in) the consent page. A
 * parameter sent more than once is refused (RFC 6749 §3.1), whatever its values.
 */
export async function showAuthorization(query: Params, cookies: readonly string[], rawQuery = '', now = new Date()): Promise<Reply> {
  const repeated = repeatedParameter(rawQuery);
  if (repeated) return refusalPage(400, `The link sends ${repeated} more than once, so it was not accepted.`);
  const checked = await checkRequest(query);
  if ('refusal' in checked) return checked.refusal;
  const session = await sessionOf(cookies, now);
  return session ? consentAnswer(checked.request, session, 200) : signInAnswer(checked.request, 200);
}

export interface FormContext {
  cookies: readonly string[];
  /** The request's headers: a form posted from another origin is refused (`fromOwnOrigin`). */
  headers: Readonly<Record<string, string | undefined>>;
  sourceIp: string | undefined;
}

/** `POST /api/v1/oauth/authorize`: the sign-in, use-another-account and consent forms of the pages. */
export async function submitAuthorization(form: Params, context: FormContext, now = new Date()): Promise<Reply> {
  if (!fromOwnOrigin(context.headers)) {
    return refusalPage(403, 'This form was sent from another website, so it was not accepted.');
  }
  const checked = await checkRequest(form);
  if ('refusal' in checked) return checked.refusal;
  const r = checked.request;
  const action = param(form, 'action');
  if (action === 'sign_in') return signInFor(r, form, context, now);
  const session = await sessionOf(context.cookies, now);
  if (action === 'sign_out') {
    if (session) await signOut(session.principal);
    return redirect(303, authorizeUrlOf(r), [sessionCookieOf('oauth', '', 0)]);
  }
  if (action !== 'consent') return refusalPage(400, 'The form is not one of this page.');
  if (!session) return signInAnswer(r, 401, { error: 'Your sign-in has ended. Sign in again to continue.' });
  return consentFor(r, form, session, now);
}

/** Sign in with the dashboard's credentials; then back to the authorization request, signed in. */
async function signInFor(r: AuthorizationRequest, form: Params, context: FormContext, now: Date): Promise<Reply> {
  const typed = param(form, 'email') ?? '';
  const input = v.safeParse(signInRequest, { email: typed, password: param(form, 'password') ?? '' });
  if (!input.success) {
    const emailIssue = input.issues.some((i) => v.getDotPath(i) === 'email');
    return signInAnswer(r, 400, {
      email: typed,
      error: emailIssue ? 'Enter your email address, like name@example.com.' : 'Enter your password (at most 128 characters).',
    });
  }
  try {
    const session = await signIn(input.output, context, now, 'oauth');
    return redirect(303, authorizeUrlOf(r), session.cookies);
  } catch (e) {
    if (!(e instanceof DomainError) || (e.status !== 401 && e.status !== 429)) throw e;
    return e.status === 401
      ? signInAnswer(r, 401, { email: input.output.email, error: 'Email or password is wrong. Check both and try again.' })
      : signInAnswer(r, 429, { email: input.output.email, error: `${e.message} Then sign in again.` }, { ...e.headers });
  }
}

/** The consent form: deny (the client is told `access_denied`), or approve a merchant and scopes (a code). */
async function consentFor(r: AuthorizationRequest, form: Params, session: Signed, now: Date): Promise<Reply> {
  const csrf = param(form, 'csrf_token') ?? '';
  if (!safeEqual(csrf, csrfTokenOf(session.token, r))) {
    return consentAnswer(r, session, 403, { error: 'This form has expired. Check your choices and approve or deny again.' });
  }
  const decision = param(form, 'decision');
  if (decision === 'deny') {
    return redirect(303, backToClient(r.redirectUri, r.state, { error: 'access_denied', error_description: 'The person denied access.' }));
  }
  const granted = form.granted_scopes === undefined ? [] : [form.granted_scopes].flat();
  const scopes = agentScopes.filter((s) => granted.includes(s));
  const merchantId = param(form, 'merchant_id');
  const again = (status: number, error: string) => consentAnswer(r, session, status, { ...(merchantId ? { merchantId } : {}), checked: scopes, error });
  if (decision !== 'approve') return again(400, 'Choose Approve or Deny.');
  if (granted.some((s) => typeof s !== 'string' || !isAgentScope(s))) return again(400, 'Choose among the permissions listed.');
  if (scopes.length === 0) return again(400, 'Choose at least one thing the app may do, or deny access.');
  const chosen = merchantId ? (await merchantsOfUser(session.principal.userId)).find((m) => m.merchant.id === merchantId) : undefined;
  if (!chosen) return again(400, 'Choose one of the merchants you are on the team of.');
  const code = newAuthorizationCode();
  await putNewCode({
    verifier: verifierOf(code),
    clientId: r.client.id,
    redirectUri: r.redirectUri,
    redirectUriGiven: r.redirectUriGiven,
    codeChallenge: r.codeChallenge,
    resource: r.resource,
    userId: session.principal.userId,
    merchantId: chosen.merchant.id,
    scopes,
    refreshable: r.client.grantTypes.includes('refresh_token'),
    mode: config.mode,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + CODE_TTL_SECONDS * 1000).toISOString(),
    status: 'issued',
    familyId: null,
  });
  return redirect(303, backToClient(r.redirectUri, r.state, { code }));
}
