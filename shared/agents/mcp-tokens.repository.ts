/**
 * User MCP token records: found by id in one read — together with the merchant and the person's membership it
 * names, in one `BatchGetItem` — and listed per person and merchant through gsi1. An expired token's record stays as
 * long as history does (so it keeps answering `token_expired`), then DynamoDB's TTL removes it.
 */
import { queryGsi1, revokeOwnedItem, tableName, touchLastUsed } from '../platform/db/client.ts';
import { batchRead, type ItemRead } from '../platform/db/batch-read.ts';
import { membershipRead, merchantRead } from '../people/index.ts';
import { McpTokenEntity, mcpTokensOf, type McpTokenRecord } from './mcp-token.entity.ts';

export const putNewMcpToken = (t: McpTokenRecord) => ({
  Put: { TableName: tableName(), Item: McpTokenEntity.item(t), ConditionExpression: 'attribute_not_exists(pk)' },
});

const mcpTokenRead = (id: string): ItemRead<McpTokenRecord> => ({ key: McpTokenEntity.key({ id }), from: McpTokenEntity.parse });

/** The token `id`, the merchant `merchantId` and `userId`'s membership of it, in ONE `BatchGetItem` (each null when absent). */
export const getMcpTokenWithMembership = (id: string, merchantId: string, userId: string) =>
  batchRead([mcpTokenRead(id), merchantRead(merchantId), membershipRead(merchantId, userId)]);

/** Every token `userId` minted on `merchantId`, oldest first. */
export async function listMcpTokens(merchantId: string, userId: string): Promise<McpTokenRecord[]> {
  return (await queryGsi1(mcpTokensOf(merchantId, userId).gsi1pk)).map(McpTokenEntity.parse);
}

/**
 * Revoke `userId`'s token `id` on `merchantId`: 'revoked', 'already_revoked', or 'not_found' (also for someone
 * else's token, so token ids cannot be probed).
 */
export const revokeMcpTokenRecord = async (merchantId: string, userId: string, id: string, now: string) =>
  (await revokeOwnedItem(McpTokenEntity.key({ id }), { merchantId, userId }, now)).outcome;

/** Record use of a token, at most once a minute, and never on a revoked one. */
export const touchMcpToken = (t: McpTokenRecord, now: Date): Promise<void> => touchLastUsed(McpTokenEntity.key(t), t.lastUsedAt, now);
