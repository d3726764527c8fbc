/**
 * CORS of the faces whose routes any origin may read: the buyer checkout (its routes are public, read by pages on
 * any origin) and the OAuth authorization server (its discovery documents, registration, token and revocation
 * endpoints are read by MCP clients that run in browsers). Their answers say `access-control-allow-origin: *`
 * and never `access-control-allow-credentials` (browsers then never send cookies or HTTP auth with them). No
 * other face answers with CORS headers: their callers are servers, or the platform's own pages. Pages (`text/html`)
 * never carry them either: they are navigated to, not read.
 *
 * Preflight: one `OPTIONS /api/v1/checkout/{proxy+}` route (deployed: one small function; locally: the same
 * function through the gateway) answers 204 with the methods the path takes, the `content-type` request header
 * and a max-age, or 404 when no checkout route has the path.
 */
import type { Face, RouteDef } from '../../routes/types.ts';

/** Response headers a page of each CORS face may read besides the CORS-safelisted ones. */
const exposedHeaders: Readonly<Partial<Record<Face, string>>> = {
  checkout: 'deprecation, sunset, link, location',
  oauth: 'etag, retry-after, www-authenticate',
};

/** The face whose routes have a preflight route (only its routes take requests that need one). */
const preflightFace: Face = 'checkout';

/** How long a browser may keep a preflight answer (Chromium caps it at two hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** Request headers a checkout page may send besides the CORS-safelisted ones. */
export const PREFLIGHT_ALLOWED_HEADERS = 'content-type';

/** The CORS headers of an answer of `route` (none for faces other than the CORS faces', and none for a page). */
export function corsHeaders(route: Pick<RouteDef, 'face' | 'contentType'>): Record<string, string> {
  const exposed = exposedHeaders[route.face];
  if (!exposed || route.contentType === 'text/html') return {};
  return { 'access-control-allow-origin': '*', 'access-control-expose-headers': exposed };
}

/** The preflight route of the checkout face (it is not in the route table: its method is not an API method). */
export const checkoutPreflightRoute = {
  name: 'checkout-preflight',
  method: 'OPTIONS',
  path: '/api/v1/checkout/{proxy+}',
  handler: 'functions/checkout/preflight.ts',
  summary: 'CORS preflight of the buyer checkout routes.',
} as const;

/** Whether `route` is of the face that has the preflight route (all such routes must share one group). */
export const hasPreflight = (route: Pick<RouteDef, 'face'>): boolean => route.face === preflightFace;

/** The preflight routes a set of routes needs: the checkout one when any of them is a checkout route. */
export function preflightRoutesOf(routes: readonly object[]): Array<typeof checkoutPreflightRoute> {
  return routes.some((r) => 'face' in r && hasPreflight(r as Pick<RouteDef, 'face'>)) ? [checkoutPreflightRoute] : [];
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
