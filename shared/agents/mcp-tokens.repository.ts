/**
 * User MCP token records: found by id in one read — together with the merchant and the person's membership it
 * names, in one `BatchGetItem` — and listed per person and merchant through gsi1. An expired token's record stays as
 * long as history does (so it keeps answering `token_expired`), then DynamoDB's TTL removes it.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { isAgentScope, type AgentScope } from '../domain/agent-scopes.ts';
import type { Mode } from '../domain/deployments.ts';
import { batchRead, db, queryGsi1, revokeOwnedItem, tableName, touchLastUsed, type ItemRead } from '../platform/db/client.ts';
import { historyTtl, stringOrNull, withoutNulls } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import { membershipRead } from '../people/members.service.ts';
import { merchantRead } from '../people/merchants.service.ts';

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

const toItem = (t: McpTokenRecord) => ({
  ...keys.mcpToken(t.id),
  ...keys.mcpTokenListing(t.merchantId, t.userId, t.createdAt, t.id),
  entity: 'mcpToken',
  ...withoutNulls(t),
  ttl: historyTtl(t.expiresAt),
});

const fromItem = (item: Record<string, unknown>): McpTokenRecord => ({
  id: item.id as string,
  merchantId: item.merchantId as string,
  userId: item.userId as string,
  name: item.name as string,
  mode: item.mode as Mode,
  // A scope the platform no longer has grants nothing.
  scopes: (item.scopes as unknown[]).filter(isAgentScope),
  verifier: item.verifier as string,
  hint: item.hint as string,
  createdAt: item.createdAt as string,
  expiresAt: item.expiresAt as string,
  lastUsedAt: stringOrNull(item.lastUsedAt),
  revokedAt: stringOrNull(item.revokedAt),
});

export async function createMcpTokenRecord(t: McpTokenRecord): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: toItem(t), ConditionExpression: 'attribute_not_exists(pk)' }));
}

const mcpTokenRead = (id: string): ItemRead<McpTokenRecord> => ({ key: keys.mcpToken(id), from: fromItem });

/** The token `id`, the merchant `merchantId` and `userId`'s membership of it, in ONE `BatchGetItem` (each null when absent). */
export const getMcpTokenWithMembership = (id: string, merchantId: string, userId: string) =>
  batchRead([mcpTokenRead(id), merchantRead(merchantId), membershipRead(merchantId, userId)]);

/** Every token `userId` minted on `merchantId`, oldest first. */
export async function listMcpTokens(merchantId: string, userId: string): Promise<McpTokenRecord[]> {
  return (await queryGsi1(keys.mcpTokensOf(merchantId, userId).gsi1pk)).map(fromItem);
}

/**
 * Revoke `userId`'s token `id` on `merchantId`: 'revoked', 'already_revoked', or 'not_found' (also for someone
 * else's token, so token ids cannot be probed).
 */
export const revokeMcpTokenRecord = (merchantId: string, userId: string, id: string, now: string) =>
  revokeOwnedItem(keys.mcpToken(id), { merchantId, userId }, now);

/** Record use of a token, at most once a minute, and never on a revoked one. */
export const touchMcpToken = (t: McpTokenRecord, now: Date): Promise<void> => touchLastUsed(keys.mcpToken(t.id), t.lastUsedAt, now);
