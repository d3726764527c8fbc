/** Merchant API key records: found by key id in one read, listed per merchant through gsi1. */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../domain/deployments.ts';
import type { Merchant } from '../domain/merchants.ts';
import { batchRead, db, queryGsi1, revokeOwnedItem, tableName, touchLastUsed } from '../platform/db/client.ts';
import { stringOrNull, withoutNulls } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import { merchantRead } from './merchants.repository.ts';

export interface ApiKeyRecord {
  id: string;
  merchantId: string;
  name: string;
  mode: Mode;
  /** SHA-256 of the key; the key itself is never stored. */
  verifier: string;
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const toItem = (k: ApiKeyRecord) => ({
  ...keys.apiKey(k.id),
  ...keys.apiKeyListing(k.merchantId, k.createdAt, k.id),
  entity: 'apiKey',
  ...withoutNulls(k),
});

const fromItem = (item: Record<string, unknown>): ApiKeyRecord => ({
  id: item.id as string,
  merchantId: item.merchantId as string,
  name: item.name as string,
  mode: item.mode as Mode,
  verifier: item.verifier as string,
  hint: item.hint as string,
  createdAt: item.createdAt as string,
  lastUsedAt: stringOrNull(item.lastUsedAt),
  revokedAt: stringOrNull(item.revokedAt),
});

export const putNewApiKey = (k: ApiKeyRecord) => ({
  Put: { TableName: tableName(), Item: toItem(k), ConditionExpression: 'attribute_not_exists(pk)' },
});

export async function createApiKeyRecord(k: ApiKeyRecord): Promise<void> {
  await db.send(new PutCommand(putNewApiKey(k).Put));
}

export async function getApiKey(id: string): Promise<ApiKeyRecord | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}

/**
 * The key `id` and the merchant `merchantId` in ONE `BatchGetItem` (both consistent reads): what a request on a
 * merchant's path needs before anything else, so the scope check does not read the merchant again.
 */
export async function getApiKeyAndMerchant(id: string, merchantId: string): Promise<{ key: ApiKeyRecord | null; merchant: Merchant | null }> {
  const [key, merchant] = await batchRead([{ key: keys.apiKey(id), from: fromItem }, merchantRead(merchantId)]);
  return { key, merchant };
}

/** Every key of a merchant, oldest first. */
export async function listApiKeys(merchantId: string): Promise<ApiKeyRecord[]> {
  return (await queryGsi1(keys.apiKeysOfMerchant(merchantId).gsi1pk)).map(fromItem);
}

/**
 * Revoke a key of `merchantId`. Returns 'revoked', 'already_revoked', or 'not_found' (also for another
 * merchant's key, so key ids cannot be probed across merchants).
 */
export const revokeApiKeyRecord = (merchantId: string, id: string, now: string) => revokeOwnedItem(keys.apiKey(id), { merchantId }, now);

/** Record use of a key, at most once a minute, and never on a revoked key. */
export const touchApiKey = (k: ApiKeyRecord, now: Date): Promise<void> => touchLastUsed(keys.apiKey(k.id), k.lastUsedAt, now);
