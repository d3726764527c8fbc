/** Merchant API key records: found by key id in one read, listed per merchant through gsi1 (and under who made them: ./made.repository.ts). */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Merchant } from '../domain/merchants.ts';
import { db, putFresh, queryGsi1, revokeOwnedItem, tableName, touchLastUsed } from '../platform/db/client.ts';
import { batchRead } from '../platform/db/batch-read.ts';
import { ApiKeyEntity, apiKeysOfMerchant, type ApiKeyRecord } from './api-key.entity.ts';
import { merchantRead } from './merchants.repository.ts';

export const putNewApiKey = (k: ApiKeyRecord) => ({
  Put: { TableName: tableName(), Item: ApiKeyEntity.item(k), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** A new key (`putFresh`: a write the SDK sends again after it landed is this creation's, not a collision). */
export const createApiKeyRecord = (k: ApiKeyRecord): Promise<void> => putFresh(ApiKeyEntity.item(k));

export async function getApiKey(id: string): Promise<ApiKeyRecord | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: ApiKeyEntity.key({ id }), ConsistentRead: true }));
  return ApiKeyEntity.parseOrNull(Item);
}

/**
 * The key `id` and the merchant `merchantId` in ONE `BatchGetItem` (both consistent reads): what a request on a
 * merchant's path needs before anything else, so the scope check does not read the merchant again.
 */
export async function getApiKeyAndMerchant(id: string, merchantId: string): Promise<{ key: ApiKeyRecord | null; merchant: Merchant | null }> {
  const [key, merchant] = await batchRead([{ key: ApiKeyEntity.key({ id }), from: ApiKeyEntity.parse }, merchantRead(merchantId)]);
  return { key, merchant };
}

/** Every key of a merchant, oldest first. */
export async function listApiKeys(merchantId: string): Promise<ApiKeyRecord[]> {
  return (await queryGsi1(apiKeysOfMerchant(merchantId).gsi1pk)).map(ApiKeyEntity.parse);
}

/**
 * Revoke a key of `merchantId`. Returns 'revoked', 'already_revoked', or 'not_found' (also for another
 * merchant's key, so key ids cannot be probed across merchants).
 */
export const revokeApiKeyRecord = async (merchantId: string, id: string, now: string) =>
  (await revokeOwnedItem(ApiKeyEntity.key({ id }), { merchantId }, now)).outcome;

/** Record use of a key, at most once a minute, and never on a revoked key. */
export const touchApiKey = (k: ApiKeyRecord, now: Date): Promise<void> => touchLastUsed(ApiKeyEntity.key(k), k.lastUsedAt, now);
