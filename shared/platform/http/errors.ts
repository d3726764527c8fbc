/**
 * Error bodies and the headers every response carries, per face:
 * - merchant, checkout, dashboard and system routes: `{ statusCode, code, message, details }` (`details` an object);
 * - organization routes: `{ errorCode, statusCode, message, details }` (`details` a string), as its spec says;
 * - OAuth routes: `{ error, error_description }` (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 7009 §2.2.1), `error` one
 *   of the RFCs' codes (`oauthErrorCode`).
 * - the agent face (the MCP endpoint): `{ statusCode, error, code, message, docUrl }`, as the spec's MCP 401 says
 *   (`error` the status's reason phrase, `docUrl` where the codes and their recovery are explained).
 * The local gateway answers its own errors (no route, body too large, …) through the same functions.
 */
import { STATUS_CODES } from 'node:http';
import { MCP_PATH } from '../../domain/agent-scopes.ts';
import type { Face } from './route-def.ts';
import { docsUrl } from './docs-links.ts';
import { config } from '../config.ts';

/**
 * Headers of every response: no MIME sniffing, no caching of API answers, no framing (a page meant to be framed,
 * the hosted-fields frame, names the origins that may frame it in its own CSP's `frame-ancestors` instead:
 * `route()` then drops this one; a CSP with `frame-ancestors 'none'` keeps it),
 * and HSTS on deployed stages (`MOR_LOCAL=1` marks the local stack, which speaks plain HTTP).
 */
export function securityHeaders(): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    ...(config.localStack ? {} : { 'strict-transport-security': 'max-age=63072000; includeSubDomains' }),
  };
}

/** Organization-face `details`: the validation issues one per line, or the details' fields as `name: value`. */
function detailsText(details: Record<string, unknown>): string {
  const issues = details.issues as Array<{ field: string; message: string }> | undefined;
  if (issues) return issues.map((i) => `${i.field}: ${i.message}`).join('\n');
  return Object.entries(details)
    .map(([k, value]) => `${k}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

/** The error codes of the OAuth endpoints' answers (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 7009 §2.2.1, RFC 8707 §2). */
export const oauthErrorCodes = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'unsupported_token_type',
  'invalid_redirect_uri',
  'invalid_client_metadata',
  'server_error',
  'temporarily_unavailable',
] as const;
export type OAuthErrorCode = (typeof oauthErrorCodes)[number];

const isOAuthErrorCode = (code: string): code is OAuthErrorCode => (oauthErrorCodes as readonly string[]).includes(code);

/**
 * The `error` of an OAuth face answer: the code itself when it is one of the RFCs' (the OAuth services throw
 * those), else the platform's own refusals by status — a malformed request (bad media type, body or query, too
 * large, no such route) is `invalid_request`, a refused credential `invalid_client`, too many attempts and an
 * outage `temporarily_unavailable`, anything else `server_error`.
 */
export function oauthErrorCode(status: number, code: string): OAuthErrorCode {
  if (isOAuthErrorCode(code)) return code;
  if (status === 401) return 'invalid_client';
  if (status === 429 || status === 503) return 'temporarily_unavailable';
  return status < 500 ? 'invalid_request' : 'server_error';
}

/** The docs section that lists every error code of the agent face and what to do about it (`docs/mcp.md`, "MCP errors"). */
export const AGENT_ERRORS_SECTION = { page: 'mcp', anchor: 'mcp-errors' } as const;

export function errorBody(face: Face, status: number, code: string, message: string, details: Record<string, unknown> = {}): string {
  if (face === 'agent') {
    return JSON.stringify({
      statusCode: status,
      error: STATUS_CODES[status] ?? 'Error',
      code,
      message,
      docUrl: docsUrl(AGENT_ERRORS_SECTION.page, AGENT_ERRORS_SECTION.anchor),
    });
  }
  if (face === 'oauth') return JSON.stringify({ error: oauthErrorCode(status, code), error_description: message });
  return JSON.stringify(
    face === 'organization' ? { errorCode: code, statusCode: status, message, details: detailsText(details) } : { statusCode: status, code, message, details },
  );
}

/** The face a path belongs to, for answers the gateway gives before any route matched. */
export function faceOfPath(path: string): Face {
  if (path === MCP_PATH || path.startsWith(`${MCP_PATH}/`) || path.startsWith('/.well-known/mcp')) return 'agent';
  if (path.startsWith('/api/v1/public-api/merchants')) return 'merchant';
  if (/^\/api\/v1\/(public-api|webhook-destinations|transactions|hosted-fields)(\/|$)/.test(path) || path.startsWith('/api/transactions'))
    return 'organization';
  if (path.startsWith('/api/v1/checkout')) return 'checkout';
  if (path.startsWith('/api/v1/dashboard')) return 'dashboard-api';
  if (path.startsWith('/api/v1/oauth/') || path.startsWith('/.well-known/oauth-')) return 'oauth';
  return 'system';
}
