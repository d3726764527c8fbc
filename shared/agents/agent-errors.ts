/**
 * The MCP endpoint's refusals at the HTTP level, in the agent face's body (`{statusCode, error, code, message,
 * docUrl}`, built by the error mapper) with the headers an MCP client acts on:
 * - 401 with `WWW-Authenticate: Bearer resource_metadata="<origin>/.well-known/oauth-protected-resource/api/mcp"`
 *   (RFC 9728: where an OAuth client discovers how to get a token), plus `error="invalid_token"` when a token was
 *   sent but cannot be used; codes `missing_token`, `invalid_token`, `token_expired`, `token_validation_unavailable`.
 * - 403 `insufficient_scope` with `WWW-Authenticate: Bearer error="insufficient_scope", scope="<needed and granted>"`:
 *   what an OAuth client re-consents with (step-up).
 * - 403 for a foreign `Origin`, 400 for an unsupported `MCP-Protocol-Version`.
 */
import { MCP_PATH, type AgentScope } from '../domain/agent-scopes.ts';
import { BadRequestError, DomainError } from '../domain/errors.ts';
import { config } from '../platform/config.ts';
import { errorBody, securityHeaders } from '../platform/http/errors.ts';

/** The protected resource metadata of the MCP endpoint (RFC 9728), served by the authorization server's module. */
export const resourceMetadataUrl = (): string => `${config.publicOrigin}/.well-known/oauth-protected-resource${MCP_PATH}`;

/** A `Bearer` challenge with `params` (values are plain ASCII without quotes) and the resource metadata. */
const challenge = (params: Record<string, string>): string =>
  `Bearer ${Object.entries({ ...params, resource_metadata: resourceMetadataUrl() })
    .map(([name, value]) => `${name}="${value}"`)
    .join(', ')}`;

/** The spec's exact message for an expired token. */
export const TOKEN_EXPIRED_MESSAGE = 'MCP Session Expired. Please generate a new token in the Developer Dashboard.';

/** How long a client should wait before trying again when tokens cannot be checked. */
const RETRY_AFTER_SECONDS = 5;

export const missingToken = () =>
  new DomainError(
    401,
    'missing_token',
    'Send your token as "Authorization: Bearer <token>" (an OAuth access token, or an MCP token from the Developer Dashboard), or connect with OAuth.',
    {},
    { 'www-authenticate': challenge({}) },
  );

/** A token was sent but cannot be used: `reason` says why, never echoing the token. */
export const invalidToken = (reason: string) =>
  new DomainError(
    401,
    'invalid_token',
    `The token is not valid: ${reason}. Get a real or new token from the matching tab (Sandbox or Live) of the Developer Dashboard, or reconnect with OAuth.`,
    {},
    { 'www-authenticate': challenge({ error: 'invalid_token' }) },
  );

export const tokenExpired = () =>
  new DomainError(401, 'token_expired', TOKEN_EXPIRED_MESSAGE, {}, { 'www-authenticate': challenge({ error: 'invalid_token' }) });

/**
 * The token store could not be read (throttled, unreachable): the token may well be good, so no `error` is set in the
 * challenge and the client is told to retry, not to get a new token. A 401 as the spec's table of MCP 401 codes has
 * it, with `Retry-After`.
 */
export const tokenValidationUnavailable = () =>
  new DomainError(
    401,
    'token_validation_unavailable',
    'The token could not be checked right now. Retry in a few seconds; do not ask for a new token.',
    {},
    { 'www-authenticate': challenge({}), 'retry-after': String(RETRY_AFTER_SECONDS) },
  );

/**
 * A `tools/call` whose tool needs `missing` scopes the token was not granted. The challenge's `scope` is what the
 * client should ask for: the needed scopes and the granted ones (a new consent replaces the old grant, which must not
 * lose anything).
 */
export function insufficientScope(missing: readonly AgentScope[], granted: readonly AgentScope[]) {
  const wanted = [...new Set([...missing, ...granted])].join(' ');
  const names = missing.join(' and ');
  return new DomainError(
    403,
    'insufficient_scope',
    `This tool needs the scope ${names}, which this token was not granted. Mint a new MCP token with ${names} in the Developer Dashboard, or re-consent (reconnect with OAuth) granting ${names}.`,
    { missingScopes: [...missing] },
    { 'www-authenticate': challenge({ error: 'insufficient_scope', scope: wanted }) },
  );
}

export const originNotAllowed = () =>
  new DomainError(403, 'origin_not_allowed', 'Requests from this web origin may not reach the MCP endpoint (DNS-rebinding and cross-site protection).');

/** The same refusal as a Lambda result, for the preflight function (which has no route wiring). */
export const agentOriginNotAllowedResult = () => {
  const e = originNotAllowed();
  return { statusCode: e.status, headers: { ...securityHeaders(), 'content-type': 'application/json' }, body: errorBody('agent', e.status, e.code, e.message) };
};

/** `GET` and `DELETE` of the MCP endpoint: it opens no event stream and keeps no session. */
export const mcpMethodNotAllowed = (method: 'GET' | 'DELETE') =>
  new DomainError(
    405,
    'method_not_allowed',
    method === 'GET'
      ? 'The MCP endpoint opens no server-sent event stream: send JSON-RPC messages with POST.'
      : 'The MCP endpoint is stateless: there is no session to end. Send JSON-RPC messages with POST.',
    {},
    { allow: 'POST' },
  );

export const unsupportedProtocolVersion = (supported: readonly string[]) =>
  new BadRequestError('unsupported_protocol_version', `This MCP-Protocol-Version is not supported; supported versions: ${supported.join(', ')}.`);
