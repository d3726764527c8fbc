/**
 * CORS of the faces whose routes any origin may read: the buyer checkout (its routes are public, read by pages on
 * any origin) and the OAuth authorization server (its discovery documents, registration, token and revocation
 * endpoints are read by MCP clients that run in browsers). Their answers say `access-control-allow-origin: *`
 * and never `access-control-allow-credentials` (browsers then never send cookies or HTTP auth with them). No
 * other face answers with CORS headers: their callers are servers, or the platform's own pages. Pages (`text/html`)
 * never carry them either: they are navigated to, not read.
 *
 * Preflight: one `OPTIONS <prefix>/{proxy+}` route per CORS face (deployed: one small function beside the face's
 * routes; locally: the same function through the gateway) answers 204 with the methods the path takes, the request
 * headers the face allows and a max-age, or 404 when no route of the face (other than a page) has the path:
 * `/api/v1/checkout/{proxy+}` (`content-type`), `/api/v1/oauth/{proxy+}` (`content-type`, `authorization`: a
 * confidential client's HTTP Basic credentials). The discovery documents, at the host's root, are simple GETs.
 */
import type { Face, RouteDef } from '../../routes/types.ts';

/** Response headers a page of each CORS face may read besides the CORS-safelisted ones. */
const exposedHeaders: Readonly<Partial<Record<Face, string>>> = {
  checkout: 'deprecation, sunset, link, location',
  oauth: 'etag, retry-after, www-authenticate',
};

/** How long a browser may keep a preflight answer (Chromium caps it at two hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** The CORS headers of an answer of `route` (none for faces other than the CORS faces', and none for a page). */
export function corsHeaders(route: Pick<RouteDef, 'face' | 'contentType'>): Record<string, string> {
  const exposed = exposedHeaders[route.face];
  if (!exposed || route.contentType === 'text/html') return {};
  return { 'access-control-allow-origin': '*', 'access-control-expose-headers': exposed };
}

/** The preflight routes (not in the route table: their method is not an API method), one per CORS face. */
export const preflightRoutes = {
  checkout: {
    name: 'checkout-preflight',
    method: 'OPTIONS',
    path: '/api/v1/checkout/{proxy+}',
    handler: 'functions/checkout/preflight.ts',
    summary: 'CORS preflight of the buyer checkout routes.',
  },
  oauth: {
    name: 'oauth-preflight',
    method: 'OPTIONS',
    path: '/api/v1/oauth/{proxy+}',
    handler: 'functions/oauth/preflight.ts',
    summary: "CORS preflight of the OAuth authorization server's registration, token and revocation endpoints.",
  },
} as const satisfies Partial<Record<Face, { name: string; method: 'OPTIONS'; path: string; handler: string; summary: string }>>;

export type PreflightRoute = (typeof preflightRoutes)[keyof typeof preflightRoutes];

/** Request headers each face's preflight grants besides the CORS-safelisted ones. */
const allowedHeaders: Readonly<Record<keyof typeof preflightRoutes, string>> = {
  checkout: 'content-type',
  oauth: 'content-type, authorization',
};

/** The face of `route`'s preflight, when its face has one and it is not a page (the routes a preflight grants). */
export const preflightFaceOf = (route: Pick<RouteDef, 'face' | 'contentType'>): keyof typeof preflightRoutes | null =>
  route.face in preflightRoutes && route.contentType !== 'text/html' ? (route.face as keyof typeof preflightRoutes) : null;

/** The preflight routes a set of routes needs: a face's when any of them is a route its preflight grants. */
export function preflightRoutesOf(routes: readonly object[]): PreflightRoute[] {
  const faces = new Set(routes.map((r) => ('face' in r ? preflightFaceOf(r as Pick<RouteDef, 'face' | 'contentType'>) : null)));
  return (Object.keys(preflightRoutes) as Array<keyof typeof preflightRoutes>).filter((f) => faces.has(f)).map((f) => preflightRoutes[f]);
}

/** The preflight answer of `face` for a path that takes `methods` (from `routeMatcher(...).methodsOf`): 204 grants, or null. */
export function preflightHeaders(face: keyof typeof preflightRoutes, methods: readonly string[]): Record<string, string> | null {
  if (!methods.length) return null;
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': [...methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': allowedHeaders[face],
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
}
