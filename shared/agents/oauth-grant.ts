/**
 * The OAuth side of the MCP endpoint's token dispatch (`authenticateAgentRequest`): what a `mor_oat_…` access token
 * grants, as the platform's authorization server (`shared/oauth/`) verifies it — a grant, 'expired', or null for a
 * token it does not know (unknown, revoked, of another deployment or audience). It may throw when its table cannot
 * be read; the dispatch answers that `token_validation_unavailable`.
 *
 * Until the authorization server is merged in, no access token is known: this answers null, so every `mor_oat_…`
 * token is `invalid_token`. At the merge this body becomes `return verifyOAuthAccessToken(token)`.
 */
import type { AgentGrant } from '../domain/agent-scopes.ts';

/** What every OAuth access token of the platform starts with. */
export const OAUTH_ACCESS_TOKEN_PREFIX = 'mor_oat_';

export async function oauthGrant(_token: string): Promise<AgentGrant | 'expired' | null> {
  return null;
}
