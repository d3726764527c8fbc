/**
 * How a dashboard page (the `page` face) answers an error: a missing or expired session sends the browser to the
 * sign-in page (a customer portal page: to its merchant's portal sign-in page) (303, with the page it wanted as `next` when that was a GET), and every other refusal is a small page
 * of its own with the status, a heading that names what happened, the reason and a way back (to the page the form
 * was on). It has the dashboard's stylesheet and no script at all, so a form's function that lets its refusals
 * through needs no page renderer.
 */
import { portalPath } from '../../domain/portal-paths.ts';
import { config } from '../config.ts';
import { DOCS_PATH } from './docs-links.ts';
import { clearedPortalSessionCookie, clearedSessionCookie, cookieValue, PORTAL_SESSION_COOKIE, sessionTokenOfCookies } from './session-cookie.ts';
import type { HttpEvent, HttpResult } from './types.ts';

/** The dashboard's stylesheet, served from its origin (`style-src 'self'`). */
export const DASHBOARD_STYLESHEET_PATH = '/dashboard/assets/dashboard.css';
/** Where a person without a session is sent. */
export const SIGN_IN_PATH = '/dashboard/sign-in';

/** The CSP of a page without script. */
export const scriptlessPageCsp = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const NOT_DONE = 'That could not be done';
/** A refusal's heading by status; any other refusal's (400, 415, …) is 'That request cannot be used'. */
const headings: Readonly<Record<number, string>> = {
  403: 'You cannot do that here',
  404: 'Page not found',
  409: NOT_DONE,
  413: 'That is too large',
  422: NOT_DONE,
  429: 'Too many attempts',
  503: 'Unavailable for a moment',
};

/** Text as HTML (element content and quoted attribute values alike). */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The paths a dashboard page may send a browser back to: the dashboard (`/dashboard` and under it) and the join pages. */
const DASHBOARD_PATHS = /^(\/dashboard(\/|$)|\/join\/)/;
/** The paths a customer portal page may send a browser back to: the portal's. */
const PORTAL_PATHS = /^\/portal\//;
/** A customer portal page's merchant: `/portal/<merchantId>/…`. */
const PORTAL_PATH = /^\/portal\/([^/]+)(\/|$)/;
/** How many rounds of percent-decoding a returnable path is checked through (`%252e` is two). */
const DECODE_ROUNDS = 4;

/**
 * The one rule for every place that sends a browser back to a page it named (`next`, a `Referer`): `target` is
 * resolved as a URL against this origin, so dot segments (`..`, `%2e%2e`), backslashes, `//host` and absolute
 * URLs mean what a browser makes of them, and it is taken only when it stays on this origin under a returnable
 * path (`returnable`: the dashboard's and the join pages', unless a portal page asks for the portal's). The path is
 * also decoded and resolved again, round after round, and must stay returnable each time, so `..%2f` cannot step out
 * for a server that decodes it. Answers the resolved path (with its query), or undefined (also for what no browser
 * could resolve, such as a path of `//`).
 */
export function returnPathOf(target: string | undefined, returnable: RegExp = DASHBOARD_PATHS): string | undefined {
  if (!target) return undefined;
  const origin = config.publicOrigin;
  const url = URL.parse(target, `${origin}/`);
  if (!url || url.origin !== origin || url.username || url.password) return undefined;
  let path = url.pathname;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    // As an href the path is resolved again: `//host/…` (a path of our origin's URL too) must not leave the origin,
    // and `//` alone (a host left empty) is no address at all.
    const resolved = URL.parse(path, `${origin}/`);
    if (!resolved || /[?#]/.test(path) || resolved.origin !== origin || !returnable.test(resolved.pathname)) return undefined;
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return undefined;
    }
    if (decoded === path) return `${url.pathname}${url.search}${url.hash}`;
    path = decoded;
  }
  return undefined;
}

/**
 * The sign-in page's address that returns to `path` afterwards (a returnable path only, see `returnPathOf`), and
 * says the session ended when the browser still had one.
 */
function signInLocation(path: string | undefined, expired: boolean): string {
  const query = new URLSearchParams();
  const back = returnPathOf(path);
  if (back && back.split(/[?#]/)[0] !== SIGN_IN_PATH) query.set('next', back);
  if (expired) query.set('done', 'expired');
  const search = query.toString();
  return `${config.publicOrigin}${SIGN_IN_PATH}${search ? `?${search}` : ''}`;
}

/**
 * Where the error page leads back to: on the docs site, its front page; else the dashboard page the form was on (its
 * `Referer`, which the pages' policy sends within this origin only, taken by `returnPathOf`), else the dashboard.
 */
function backLinkOf(event: HttpEvent): { href: string; text: string } {
  if (event.rawPath === DOCS_PATH || event.rawPath?.startsWith(`${DOCS_PATH}/`)) return { href: DOCS_PATH, text: 'Back to the docs' };
  // A portal page leads back within the portal, any other page within the dashboard.
  const portal = PORTAL_PATH.exec(event.rawPath ?? '');
  const back = returnPathOf(event.headers?.referer, portal ? PORTAL_PATHS : DASHBOARD_PATHS);
  if (back) return { href: back, text: 'Back to the previous page' };
  return portal ? { href: portalPath(portal[1]!), text: 'Back to the billing portal' } : { href: '/dashboard', text: 'Back to the dashboard' };
}

export function pageErrorResult(status: number, message: string, event: HttpEvent, headers: Record<string, string>): HttpResult {
  const portal = PORTAL_PATH.exec(event.rawPath ?? '');
  if (status === 401 && portal) {
    // A customer portal page without its session: the portal's sign-in page, which says the session ended.
    const expired = cookieValue(event.cookies ?? [], PORTAL_SESSION_COOKIE) !== undefined;
    const location = `${config.publicOrigin}/portal/${portal[1]}${expired ? '?done=expired' : ''}`;
    return { statusCode: 303, headers: { ...headers, location }, cookies: [clearedPortalSessionCookie] };
  }
  if (status === 401) {
    const wanted = event.requestContext?.http?.method === 'GET' ? `${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}` : undefined;
    const expired = sessionTokenOfCookies(event.cookies ?? []) !== undefined;
    return { statusCode: 303, headers: { ...headers, location: signInLocation(wanted, expired) }, cookies: [clearedSessionCookie] };
  }
  const heading = escapeHtml(headings[status] ?? (status >= 500 ? 'Something went wrong' : 'That request cannot be used'));
  const back = backLinkOf(event);
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${heading}</title>
<link rel="stylesheet" href="${DASHBOARD_STYLESHEET_PATH}">
</head>
<body class="plain">
<main class="card">
<h1>${heading}</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p><a href="${escapeHtml(back.href)}">${back.text}</a></p>
</main>
</body>
</html>
`;
  return {
    statusCode: status,
    headers: { ...headers, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': scriptlessPageCsp, 'referrer-policy': 'same-origin' },
    body,
  };
}
