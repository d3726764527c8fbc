/**
 * Who an MCP request acts as: the authentication of `auth: 'agentToken'` routes (the MCP endpoint).
 *
 * The request itself is checked first: its `Origin` (a foreign one is refused with 403: DNS-rebinding and cross-site
 * protection) and its `MCP-Protocol-Version` (400 when the SDK does not support it). Then its bearer token, taken
 * from `Authorization` only — a token in the query string is refused, since URLs end up in logs — and dispatched by
 * its kind (`checkToken`): user MCP tokens to this module, OAuth access tokens to the authorization server. Whatever
 * its kind, the grant must still hold on every request: its person still a member of its merchant (a removal takes
 * effect at once) and the merchant one of this deployment. Every refusal is a 401 of the spec's four codes
 * (`agent-errors.ts`); a token store that cannot be read is `token_validation_unavailable`, never a 500.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { AgentGrant } from '../domain/agent-scopes.ts';
import { DomainError } from '../domain/errors.ts';
import { bearerToken } from '../domain/secrets.ts';
import type { Merchant, Role } from '../domain/merchants.ts';
import { getMerchantAndMembership } from '../people/index.ts';
import { config } from '../platform/config.ts';
import { agentOriginAllowed } from '../platform/http/cors.ts';
import type { HttpEvent } from '../platform/http/types.ts';
import { logger } from '../platform/observability.ts';
import { invalidToken, missingToken, originNotAllowed, tokenExpired, tokenValidationUnavailable, unsupportedProtocolVersion } from './agent-errors.ts';
import { checkUserMcpToken, invalidCheck, type TokenCheck } from './mcp-tokens.service.ts';
import { MCP_TOKEN_PREFIX } from './mcp-tokens.rules.ts';
import { OAUTH_ACCESS_TOKEN_PREFIX, oauthGrant } from './oauth-grant.ts';

/** An MCP request's caller: the grant of its token, and the merchant and role it acts with (read with the token). */
export interface AgentPrincipal {
  readonly kind: 'agentToken';
  readonly grant: AgentGrant;
  readonly merchant: Merchant;
  /** The person's role on the merchant, as it is now. */
  readonly role: Role;
}

/** Query parameters a client may try to send a token in (RFC 6750's `access_token`, and the common `token`). */
const queryTokenParameters = ['access_token', 'token'];

/** The MCP endpoint's request checks and authentication: the principal, or the refusal (403, 400 or 401). */
export async function authenticateAgentRequest(event: HttpEvent, now = new Date()): Promise<AgentPrincipal> {
  if (!agentOriginAllowed(event.headers.origin)) throw originNotAllowed();
  const version = event.headers['mcp-protocol-version'];
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) throw unsupportedProtocolVersion(SUPPORTED_PROTOCOL_VERSIONS);
  if (Object.keys(event.queryStringParameters ?? {}).some((name) => queryTokenParameters.includes(name.toLowerCase()))) {
    throw invalidToken('tokens are never taken from the URL, where logs keep them; send it in the Authorization header, and replace it, since it was exposed');
  }
  const token = bearerToken(event.headers.authorization);
  if (!token) throw missingToken();
  return agentPrincipalOf(token, now);
}

/** The principal of a bearer token, or its 401. */
export async function agentPrincipalOf(token: string, now = new Date()): Promise<AgentPrincipal> {
  let check: TokenCheck;
  try {
    check = await checkToken(token, now);
  } catch (e) {
    if (e instanceof DomainError) throw e;
    logger.error('an MCP token could not be checked', e as Error);
    throw tokenValidationUnavailable();
  }
  if (check.verdict === 'expired') throw tokenExpired();
  if (check.verdict === 'invalid') throw invalidToken(check.reason);
  const { grant, merchant, membership } = check;
  if (!merchant || merchant.mode !== config.mode) throw invalidToken('its merchant does not exist on this deployment');
  if (!membership) throw invalidToken('the person it acts for is no longer a member of its merchant');
  return { kind: 'agentToken', grant, merchant, role: membership.role };
}

/**
 * The one dispatch of the MCP endpoint's bearer tokens, by kind: user MCP tokens (`mor_mcp_…`) are checked here
 * (one `BatchGetItem`: the token, its merchant and the membership), OAuth access tokens (`mor_oat_…`) by the
 * authorization server (`oauthGrant`), their merchant and membership then read in one `BatchGetItem`. Anything else is
 * invalid. Throws when a table cannot be read.
 */
async function checkToken(token: string, now: Date): Promise<TokenCheck> {
  if (token.startsWith(MCP_TOKEN_PREFIX)) return checkUserMcpToken(token, now);
  if (token.startsWith(OAUTH_ACCESS_TOKEN_PREFIX)) {
    const grant = await oauthGrant(token);
    if (grant === null) return invalidCheck('no such OAuth access token exists (unknown, revoked, or of another deployment)');
    if (grant === 'expired' || Date.parse(grant.expiresAt) <= now.getTime()) return { verdict: 'expired' };
    const [merchant, membership] = await getMerchantAndMembership(grant.merchantId, grant.userId);
    return { verdict: 'granted', grant, merchant, membership };
  }
  return invalidCheck(
    token.startsWith('mor_')
      ? 'it is not an MCP token (a merchant API key?): the MCP endpoint takes an OAuth access token or an MCP token'
      : 'it is not a token of this platform',
  );
}
