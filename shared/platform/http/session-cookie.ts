/**
 * The dashboard's session cookie and the CSRF token bound to it.
 *
 * The cookie is `__Host-mor_session` (the OAuth sign-in's has the same rules under a name of its own): `Secure` and `Path=/` with no `Domain` (what the `__Host-` prefix demands, so
 * no subdomain can set or shadow it), `HttpOnly` (no script reads it) and `SameSite=Lax` (a link from another site
 * may open a page signed in, but no cross-site form post, fetch or frame carries it). Browsers treat a loopback
 * origin (`http://127.0.0.1`, `http://localhost`) as secure, so the local stack sets the same cookie.
 *
 * A page's form carries a CSRF token derived from the session's secret token (which the page's script cannot read),
 * so a post whose token does not match the cookie it came with is refused (`page-guard.ts`).
 */
import { createHash } from 'node:crypto';

export const SESSION_COOKIE = '__Host-mor_session';
/** The cookie of a customer signed in to the customer portal (one customer of one merchant, see shared/portal). */
export const PORTAL_SESSION_COOKIE = '__Host-mor_portal';
/** The cookie of a person signed in on the OAuth authorization pages (a session that works there only). */
export const OAUTH_SESSION_COOKIE = '__Host-mor_oauth_session';
/**
 * The cookie of a browser someone signed in from (a random token, the same for every account signed in from it): a
 * sign-in from it is counted on the browser, not on the address, so a stranger's wrong passwords for an address
 * cannot lock its person out of the browsers they use (shared/people/throttle.service.ts).
 */
export const DEVICE_COOKIE = '__Host-mor_device';
/** How long a browser stays known after its last sign-in. */
export const DEVICE_COOKIE_SECONDS = 365 * 86_400;

/** The `Set-Cookie` value of a `__Host-` session cookie `name` of `maxAgeSeconds` (0 with an empty token: sign out). */
export const hostSessionCookie = (name: `__Host-${string}`, token: string, maxAgeSeconds: number): string =>
  `${name}=${token}; HttpOnly; Secure; SameSite=Lax; Path=/; Max-Age=${maxAgeSeconds}`;

/** The `Set-Cookie` value of a dashboard session of `maxAgeSeconds` (0 with an empty token: sign out). */
export const sessionCookie = (token: string, maxAgeSeconds: number): string => hostSessionCookie(SESSION_COOKIE, token, maxAgeSeconds);

/** The `Set-Cookie` value that signs the browser out. */
export const clearedSessionCookie = sessionCookie('', 0);

/** The value of the cookie `name` among a request's cookies (API Gateway's `cookies`: one `name=value` each), if set. */
export function cookieValue(cookies: readonly string[], name: string): string | undefined {
  const prefix = `${name}=`;
  return cookies.find((c) => c.startsWith(prefix))?.slice(prefix.length) || undefined;
}

/** The `Set-Cookie` value that ends a customer portal session in the browser. */
export const clearedPortalSessionCookie = hostSessionCookie(PORTAL_SESSION_COOKIE, '', 0);

/** The `Set-Cookie` value of the browser's device token. */
export const deviceCookie = (token: string): string => hostSessionCookie(DEVICE_COOKIE, token, DEVICE_COOKIE_SECONDS);

/** The session token of a request's cookies, if it carries one. */
export const sessionTokenOfCookies = (cookies: readonly string[]): string | undefined => cookieValue(cookies, SESSION_COOKIE);

/** The CSRF token of a session's forms: a hash of its secret token under a purpose of its own (the dashboard's or the portal's). */
export const csrfTokenOf = (sessionToken: string, purpose: 'dashboard' | 'portal' = 'dashboard'): string =>
  createHash('sha256').update(`${purpose}-csrf\0${sessionToken}`).digest('base64url');
