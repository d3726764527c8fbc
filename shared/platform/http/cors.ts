/**
 * CORS of the faces whose routes any origin may read: the buyer checkout (its routes are public, read by pages on
 * any origin) and the OAuth authorization server (its discovery documents, registration, token and revocation
 * endpoints are read by MCP clients that run in browsers). Their answers say `access-control-allow-origin: *`
 * and never `access-control-allow-credentials` (browsers then never send cookies or HTTP auth with them). No
 * other face answers with CORS headers but the agent face: their callers are servers, or the platform's own pages.
 * Pages (`text/html`) never carry them either: they are navigated to, not read.
 *
 * The agent face (the MCP endpoint): a browser-based MCP client may call it from an allowed origin
 * (`agentOriginAllowed`), which every answer then names, and every answer exposes the headers such a client must
 * read — above all the OAuth challenge in `WWW-Authenticate`, without which it cannot discover how to sign in.
 *
 * Preflight: one `OPTIONS <prefix>/{proxy+}` route per CORS face (deployed: one small function beside the face's
 * routes; locally: the same function through the gateway) answers 204 with the methods the path takes, the request
 * headers the face allows and a max-age, or 404 when no route of the face (other than a page) has the path:
 * `/api/v1/checkout/{proxy+}` (`content-type`), `/api/v1/oauth/{proxy+}` (`content-type`, `authorization`: a
 * confidential client's HTTP Basic credentials). The discovery documents, at the host's root, are simple GETs. One
 * `OPTIONS /api/mcp` route answers an allowed origin 204 with the MCP request headers, any other 403.
 */
import { MCP_PATH } from '../../domain/agent-scopes.ts';
import type { Face, RouteDef } from './route-def.ts';
import { config } from '../config.ts';

/** Response headers a page of each CORS face may read besides the CORS-safelisted ones. */
const exposedHeaders: Readonly<Partial<Record<Face, string>>> = {
  checkout: 'deprecation, sunset, link, location',
  oauth: 'etag, retry-after, www-authenticate',
};

/** How long a browser may keep a preflight answer (Chromium caps it at two hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** Response headers a browser-based MCP client may read: the OAuth challenge, and the Streamable HTTP transport's own. */
export const AGENT_EXPOSED_HEADERS = 'www-authenticate, mcp-protocol-version, mcp-session-id';

/** Request headers a browser-based MCP client sends besides the CORS-safelisted ones. */
export const AGENT_ALLOWED_HEADERS = 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id';

const isLoopbackOrigin = (origin: string): boolean => /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i.test(origin);

/**
 * Whether a request that says it comes from a page of `origin` may reach the MCP endpoint (DNS-rebinding and
 * cross-site protection; the spec's "validate Origin"): no `Origin` at all (not a browser: an MCP host's server,
 * an IDE, a CLI) or the deployment's own public origin; on the local stack (`MOR_LOCAL=1`, which deployed stacks
 * refuse) also any loopback origin, such as a local MCP Inspector. Anything else is refused with 403.
 */
export function agentOriginAllowed(origin: string | undefined): boolean {
  if (origin === undefined) return true;
  if (origin === config.publicOrigin) return true;
  return config.localStack && isLoopbackOrigin(origin);
}

/**
 * The CORS headers of an answer of `route` to a request from `origin` (none for faces other than the CORS faces'
 * and the agent face, and none for a page).
 */
export function corsHeaders(route: Pick<RouteDef, 'face' | 'contentType'>, origin?: string): Record<string, string> {
  if (route.face === 'agent') {
    const echoed = origin !== undefined && agentOriginAllowed(origin);
    return { 'access-control-expose-headers': AGENT_EXPOSED_HEADERS, ...(echoed ? { 'access-control-allow-origin': origin, vary: 'origin' } : {}) };
  }
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

/** The preflight route of the MCP endpoint (not in the route table either): it answers by origin, not by face. */
export const mcpPreflightRoute = {
  name: 'mcp-preflight',
  method: 'OPTIONS',
  path: MCP_PATH,
  handler: 'functions/agents/mcp-preflight.ts',
  summary: 'CORS preflight of the MCP endpoint.',
} as const;

export type PreflightRoute = (typeof preflightRoutes)[keyof typeof preflightRoutes] | typeof mcpPreflightRoute;

/** Request headers each face's preflight grants besides the CORS-safelisted ones. */
const allowedHeaders: Readonly<Record<keyof typeof preflightRoutes, string>> = {
  checkout: 'content-type',
  oauth: 'content-type, authorization',
};

/** The face of `route`'s preflight, when its face has one and it is not a page (the routes a preflight grants). */
export const preflightFaceOf = (route: Pick<RouteDef, 'face' | 'contentType'>): keyof typeof preflightRoutes | null =>
  route.face in preflightRoutes && route.contentType !== 'text/html' ? (route.face as keyof typeof preflightRoutes) : null;

/** The preflight routes a set of routes needs: a face's when any of them is a route its preflight grants; the MCP one with the MCP endpoint. */
export function preflightRoutesOf(routes: readonly object[]): PreflightRoute[] {
  const faces = new Set(routes.map((r) => ('face' in r ? preflightFaceOf(r as Pick<RouteDef, 'face' | 'contentType'>) : null)));
  return [
    ...(Object.keys(preflightRoutes) as Array<keyof typeof preflightRoutes>).filter((f) => faces.has(f)).map((f) => preflightRoutes[f]),
    ...(routes.some((r) => 'path' in r && 'face' in r && r.path === MCP_PATH) ? [mcpPreflightRoute] : []),
  ];
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

/** The MCP endpoint's preflight answer to `origin`: its grants (204), or null for an origin that may not call it. */
export function agentPreflightHeaders(origin: string | undefined): Record<string, string> | null {
  if (origin === undefined || !agentOriginAllowed(origin)) return null;
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'POST, GET, DELETE, OPTIONS',
    'access-control-allow-headers': AGENT_ALLOWED_HEADERS,
    'access-control-expose-headers': AGENT_EXPOSED_HEADERS,
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    vary: 'origin',
  };
}
