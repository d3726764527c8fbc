/**
 * A user MCP token (`MCPTOKEN#<tokenId>` / `MCPTOKEN`), found by its id (derived from the token; only the SHA-256 of
 * the token is stored), listed per person and merchant through gsi1 by creation (`MCPTOKENS#<merchantId>#<userId>`).
 * An expired token's record stays as long as history does (so it keeps answering `token_expired`), then DynamoDB's
 * TTL removes it.
 */
import * as v from 'valibot';
import { isAgentScope, type AgentScope } from '../domain/agent-scopes.ts';
import type { Mode } from '../domain/deployments.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { historyTtl } from '../platform/db/items.ts';

export interface McpTokenRecord {
  id: string;
  merchantId: string;
  userId: string;
  name: string;
  mode: Mode;
  scopes: AgentScope[];
  /** SHA-256 of the token; the token itself is never stored. */
  verifier: string;
  hint: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A user MCP token (shared/agents), found by its id (derived from the token; the token itself is never stored). */
export const mcpToken = (tokenId: string) => ({ pk: `MCPTOKEN#${tokenId}`, sk: 'MCPTOKEN' });
/** A person's MCP tokens on one merchant, listed by creation (gsi1). */
export const mcpTokenListing = (merchantId: string, userId: string, createdAt: string, tokenId: string) => ({
  gsi1pk: `MCPTOKENS#${merchantId}#${userId}`,
  gsi1sk: `${createdAt}#${tokenId}`,
});
export const mcpTokensOf = (merchantId: string, userId: string) => ({ gsi1pk: `MCPTOKENS#${merchantId}#${userId}` });

export const McpTokenEntity = entity<McpTokenRecord, { id: string }>({
  kind: 'mcpToken',
  schema: v.object({
    id: v.string(),
    merchantId: v.string(),
    userId: v.string(),
    name: v.string(),
    mode: v.picklist(['test', 'live']),
    // A scope the platform no longer has grants nothing.
    scopes: v.pipe(
      v.array(v.unknown()),
      v.transform((scopes) => scopes.filter(isAgentScope)),
    ),
    verifier: v.string(),
    hint: v.string(),
    createdAt: v.string(),
    expiresAt: v.string(),
    lastUsedAt: orNull(v.string()),
    revokedAt: orNull(v.string()),
  }),
  key: (t) => mcpToken(t.id),
  attributes: (t) => ({ ...mcpTokenListing(t.merchantId, t.userId, t.createdAt, t.id), ttl: historyTtl(t.expiresAt) }),
});
