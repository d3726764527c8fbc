/**
 * The guards of every state change made through a page (a `page` face route other than GET; GET never changes state),
 * and of the dashboard's JSON back end (the `dashboard-api` face, which a session cookie may authenticate):
 *
 * - **Same origin**: the browser's `Origin` must be the deployment's public origin; a request without one (older
 *   browsers on some navigations) must say `Sec-Fetch-Site: same-origin`. Anything else is refused before any
 *   credential is read, so a form on another site changes nothing even when the browser would send the cookie.
 *   The JSON back end is also called by programs with a Bearer session, which send no `Origin`: there a request
 *   is refused when its `Origin` is another one, or its `Sec-Fetch-Site` says another site (every browser sends
 *   one or the other with a fetch that changes state), so a page elsewhere cannot ride the cookie.
 * - **CSRF token**: on a signed-in page (the dashboard's or the customer portal's), the form's `csrf_token` must be
 *   the one bound to the session cookie it came with (`session-cookie.ts`), checked on the raw form before it is parsed and validated, so a forged post
 *   learns nothing of the form's rules. A form posted by a Bearer token, with no cookie, is refused the same way.
 */
import type { MiddlewareObj } from '@middy/core';
import { DomainError } from '../../domain/errors.ts';
import { safeEqual } from '../../domain/secrets.ts';
import type { RouteDef } from './route-def.ts';
import { config } from '../config.ts';
import { cookieValue, csrfTokenOf, PORTAL_SESSION_COOKIE, SESSION_COOKIE } from './session-cookie.ts';
import type { HttpEvent, HttpResult } from './types.ts';

type Middleware = MiddlewareObj<HttpEvent, HttpResult>;

/** The name of the hidden field that carries a form's CSRF token. */
export const CSRF_FIELD = 'csrf_token';

const changesState = (route: RouteDef) => route.face === 'page' && route.method !== 'GET';

const crossOrigin = (what: 'form' | 'request') =>
  new DomainError(403, 'request.cross_origin', `This ${what} was sent from another site, so nothing was changed. Open the page here and send it again.`);

/** Whether a request comes from a page of this deployment's origin (its `Origin`, or else its `Sec-Fetch-Site`). */
export function fromOwnOrigin(headers: Readonly<Record<string, string | undefined>>): boolean {
  const origin = headers.origin;
  if (origin !== undefined) return origin === config.publicOrigin;
  return headers['sec-fetch-site'] === 'same-origin';
}

/** Whether a request says it comes from a page of another origin (its `Origin`, or else its `Sec-Fetch-Site`). */
function fromOtherOrigin(headers: Readonly<Record<string, string | undefined>>): boolean {
  const origin = headers.origin;
  if (origin !== undefined) return origin !== config.publicOrigin;
  const site = headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}

export const pageOriginGuard = (route: RouteDef): Middleware => ({
  before: ({ event }) => {
    if (changesState(route) && !fromOwnOrigin(event.headers)) throw crossOrigin('form');
    if (route.face === 'dashboard-api' && route.method !== 'GET' && fromOtherOrigin(event.headers)) throw crossOrigin('request');
  },
});

export const pageCsrfGuard = (route: RouteDef): Middleware => ({
  before: ({ event }) => {
    if (!changesState(route) || (route.auth !== 'session' && route.auth !== 'portalSession')) return;
    const portal = route.auth === 'portalSession';
    const token = cookieValue(event.cookies ?? [], portal ? PORTAL_SESSION_COOKIE : SESSION_COOKIE);
    const raw = event.body && event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : (event.body ?? '');
    const sent = new URLSearchParams(raw).get(CSRF_FIELD);
    if (!token || sent === null || !safeEqual(sent, csrfTokenOf(token, portal ? 'portal' : 'dashboard'))) {
      throw new DomainError(
        403,
        'request.csrf',
        `This form has expired or did not come from this ${portal ? 'page' : 'dashboard'}, so nothing was changed. Reload the page and try again.`,
      );
    }
  },
});
