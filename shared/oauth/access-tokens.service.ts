/**
 * The contract the MCP endpoint (`shared/agents/`) calls for a bearer token that is an OAuth access token
 * (`mor_oat_…`): what it grants, `'expired'`, or nothing.
 */
import { MCP_PATH, type AgentGrant } from '../domain/agent-scopes.ts';
import { safeEqual } from '../domain/secrets.ts';
import { config } from '../platform/config.ts';
import { getMembership } from '../people/index.ts';
import { parseToken, tokenIdOf, verifierOf } from './oauth.rules.ts';
import { getTokenAndFamily } from './tokens.repository.ts';

/**
 * Verify an OAuth access token of this deployment's MCP endpoint.
 *
 * - `null`: not an access token of ours (malformed, a refresh token, a placeholder), of the other deployment (its
 *   mode), unknown, revoked (the token, or its family: revocation, code or refresh token reuse), for another
 *   resource than `<publicOrigin>/api/mcp`, or whose person is no longer on the merchant's team;
 * - `'expired'`: a token that would be valid but whose hour is over;
 * - else the grant: the person, the merchant, the scopes consented to, until when, and the client.
 *
 * Membership is checked here, on every call: removing the person from the merchant's team refuses their tokens at
 * once. Two DynamoDB calls, both strongly consistent: the token and its family in one `BatchGetItem` (the token
 * names its family), then the membership — unless `checkMembership` is false, for a caller that reads the
 * membership itself, with the merchant, in one read of its own (the MCP endpoint): then one call. Throws when the
 * table cannot be read (throttled or down): the caller answers `token_validation_unavailable`, never a 401 that
 * would make the client ask for a new token.
 */
export async function verifyOAuthAccessToken(token: string, now = new Date(), checkMembership = true): Promise<AgentGrant | 'expired' | null> {
  const parsed = parseToken(token);
  if (parsed?.kind !== 'access' || parsed.mode !== config.mode) return null;
  const { token: record, family } = await getTokenAndFamily(tokenIdOf(token, 'access'), parsed.familyId);
  if (record?.kind !== 'access' || !safeEqual(record.verifier, verifierOf(token))) return null;
  if (record.status !== 'active' || record.mode !== config.mode || record.resource !== `${config.publicOrigin}${MCP_PATH}`) return null;
  if (family?.status !== 'active') return null;
  if (Date.parse(record.expiresAt) <= now.getTime()) return 'expired';
  if (checkMembership && !(await getMembership(record.merchantId, record.userId))) return null;
  return {
    kind: 'oauth',
    tokenId: record.id,
    userId: record.userId,
    merchantId: record.merchantId,
    scopes: record.scopes,
    expiresAt: record.expiresAt,
    clientId: record.clientId,
  };
}
