/**
 * CORS, per face:
 * - buyer checkout: its routes are public (no credentials of any kind) and are read by pages on any origin, so every
 *   checkout answer says `access-control-allow-origin: *` and never `access-control-allow-credentials` (browsers then
 *   never send cookies or HTTP auth with them).
 * - agent (the MCP endpoint): a browser-based MCP client may call it from an allowed origin (`agentOriginAllowed`),
 *   which every answer then names, and every answer exposes the headers such a client must read — above all the
 *   OAuth challenge in `WWW-Authenticate`, without which it cannot discover how to sign in. Its discovery documents
 *   answer `*` themselves.
 * No other face answers with CORS headers: their callers are servers, or the platform's own pages.
 *
 * Preflight: one `OPTIONS /api/v1/checkout/{proxy+}` route (deployed: one small function; locally: the same
 * function through the gateway) answers 204 with the methods the path takes, the `content-type` request header
 * and a max-age, or 404 when no checkout route has the path; one `OPTIONS /api/mcp` route answers an allowed
 * origin 204 with the MCP request headers, any other 403.
 */
import { MCP_PATH } from '../../domain/agent-scopes.ts';
import type { Face } from '../../routes/types.ts';
import { config } from '../config.ts';

/** The faces whose routes any origin may read. */
export const corsFaces: readonly Face[] = ['checkout'];

/** How long a browser may keep a preflight answer (Chromium caps it at two hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** Request headers a checkout page may send besides the CORS-safelisted ones. */
export const PREFLIGHT_ALLOWED_HEADERS = 'content-type';

/** Response headers a checkout page may read besides the CORS-safelisted ones. */
export const EXPOSED_HEADERS = 'deprecation, sunset, link, location';

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
  return process.env.MOR_LOCAL === '1' && isLoopbackOrigin(origin);
}

/** The CORS headers of an answer of a route of `face` to a request from `origin` (none for faces other than checkout and agent). */
export function corsHeaders(face: Face, origin?: string): Record<string, string> {
  if (face === 'agent') {
    const echoed = origin !== undefined && agentOriginAllowed(origin);
    return { 'access-control-expose-headers': AGENT_EXPOSED_HEADERS, ...(echoed ? { 'access-control-allow-origin': origin, vary: 'origin' } : {}) };
  }
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

/** The preflight route of the MCP endpoint (not in the route table either). */
export const mcpPreflightRoute = {
  name: 'mcp-preflight',
  method: 'OPTIONS',
  path: MCP_PATH,
  handler: 'functions/agents/mcp-preflight.ts',
  summary: 'CORS preflight of the MCP endpoint.',
} as const;

/** The preflight routes a set of routes needs: the checkout one with a checkout route, the MCP one with the MCP endpoint. */
export function preflightRoutesOf(routes: readonly object[]): Array<typeof checkoutPreflightRoute | typeof mcpPreflightRoute> {
  return [
    ...(routes.some((r) => 'face' in r && corsFaces.includes(r.face as Face)) ? [checkoutPreflightRoute] : []),
    ...(routes.some((r) => 'path' in r && 'face' in r && r.path === MCP_PATH) ? [mcpPreflightRoute] : []),
  ];
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
