/**
 * CORS of the buyer checkout face: its routes are public (no credentials of any kind) and are read by pages on
 * any origin, so every checkout answer says `access-control-allow-origin: *` and never
 * `access-control-allow-credentials` (browsers then never send cookies or HTTP auth with them). No other face
 * answers with CORS headers: their callers are servers, or the platform's own pages.
 *
 * Preflight: one `OPTIONS /api/v1/checkout/{proxy+}` route (deployed: one small function; locally: the same
 * function through the gateway) answers 204 with the methods the path takes, the `content-type` request header
 * and a max-age, or 404 when no checkout route has the path.
 */
import type { Face } from '../../routes/types.ts';

/** The faces whose routes any origin may read. */
export const corsFaces: readonly Face[] = ['checkout'];

/** How long a browser may keep a preflight answer (Chromium caps it at two hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** Request headers a checkout page may send besides the CORS-safelisted ones. */
export const PREFLIGHT_ALLOWED_HEADERS = 'content-type';

/** Response headers a checkout page may read besides the CORS-safelisted ones. */
export const EXPOSED_HEADERS = 'deprecation, sunset, link, location';

/** The CORS headers of an answer of a route of `face` (none for faces other than checkout). */
export function corsHeaders(face: Face): Record<string, string> {
  if (!corsFaces.includes(face)) return {};
  return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS };
}

/** The preflight route of the checkout face (it is not in the route table: its method is not an API method). */
export const checkoutPreflightRoute = {
  name: 'checkout-preflight',
  method: 'OPTIONS',
  path: '/api/v1/checkout/{proxy+}',
  handler: 'functions/checkout/preflight.ts',
  summary: 'CORS preflight of the buyer checkout routes.',
} as const;

/** The preflight routes a set of routes needs: the checkout one when any of them is a checkout route. */
export function preflightRoutesOf(routes: readonly object[]): Array<typeof checkoutPreflightRoute> {
  return routes.some((r) => 'face' in r && corsFaces.includes(r.face as Face)) ? [checkoutPreflightRoute] : [];
}

/** The preflight answer for a path that takes `methods` (from `routeMatcher(...).methodsOf`): 204 grants, or null. */
export function preflightHeaders(methods: readonly string[]): Record<string, string> | null {
  if (!methods.length) return null;
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': PREFLIGHT_ALLOWED_HEADERS,
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
}
