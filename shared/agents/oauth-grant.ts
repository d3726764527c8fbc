/**
 * The OAuth side of the MCP endpoint's token dispatch (`authenticateAgentRequest`): what a `mor_oat_…` access token
 * grants, as the platform's authorization server (`shared/oauth/`) verifies it — a grant, 'expired', or null for a
 * token it does not know (unknown, revoked, of another deployment or audience, its person no longer on the team).
 * It throws when its table cannot be read; the dispatch answers that `token_validation_unavailable`.
 */
import type { AgentGrant } from '../domain/agent-scopes.ts';
import { verifyOAuthAccessToken } from '../oauth/index.ts';

/** The membership is not read here: the dispatch reads it with the merchant, in one `BatchGetItem`. */
export const oauthGrant = (token: string): Promise<AgentGrant | 'expired' | null> => verifyOAuthAccessToken(token, new Date(), false);

/** What every OAuth access token of the platform starts with. */
export const OAUTH_ACCESS_TOKEN_PREFIX = 'mor_oat_';
