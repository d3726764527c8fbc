/**
 * Webhook destinations of organization-API accounts: items in the account's partition (one Query lists them
 * all), with a count item that keeps the account within its limit, and the same circuit attributes as merchant
 * destinations (`recordCircuitFailure` / `recordCircuitSuccess` of shared/webhooks/webhooks.repository.ts take either key).
 * Delivery records are the shared ones of shared/webhooks/webhooks.repository.ts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { OrganizationEventType } from './org-webhooks.schemas.ts';
import {
  type AccountWebhookDestination,
  AccountWebhookDestinationEntity,
  accountWebhookCountKey,
  accountWebhookDestinationKey,
  accountWebhookDestinationsOf,
  type StoredBasicAuth,
} from './account-webhook-destination.entity.ts';
import { db, queryAll, tableName, updateIfCondition } from '../platform/db/client.ts';
import { cancellationReasons, failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import type { TransactItem } from '../platform/db/types.ts';

/** The changes of an update: absent fields stay; `auth: null` removes the credentials. */
export interface AccountWebhookDestinationChanges {
  url?: string;
  eventTypes?: OrganizationEventType[];
  auth?: StoredBasicAuth | null;
}

export const isAccountWebhookDestinationId = (id: string): boolean => /^whd_[0-9a-f]{32}$/.test(id);

/**
 * Create a destination and count it, in one transaction with `keyLive` (the check that the key making it is still
 * live): the count item must stay below `max` (it is created at 1 by the account's first destination).
 * `limit_reached` when the account has `max` destinations already; `key_revoked` when the key was revoked since the
 * request's key check.
 */
export async function createAccountDestination(
  d: AccountWebhookDestination,
  max: number,
  keyLive: TransactItem,
): Promise<'created' | 'limit_reached' | 'key_revoked' | 'busy'> {
  const count: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: accountWebhookCountKey(d.accountId),
      UpdateExpression: 'SET destinationCount = if_not_exists(destinationCount, :zero) + :one, entity = :entity',
      ConditionExpression: 'attribute_not_exists(destinationCount) OR destinationCount < :max',
      ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': max, ':entity': 'accountWebhookCount' },
    },
  };
  const parts: NamedParts<'key' | 'count' | 'destination'> = [
    ['key', [keyLive]],
    ['count', [count]],
    ['destination', [{ Put: { TableName: tableName(), Item: AccountWebhookDestinationEntity.item(d), ConditionExpression: 'attribute_not_exists(pk)' } }]],
  ];
  try {
    await transactWrite(parts);
    return 'created';
  } catch (e) {
    const reasons = cancellationReasons(e);
    const failed = failedParts(e, parts);
    if (failed?.has('key')) return 'key_revoked';
    if (failed?.has('count')) return 'limit_reached';
    // Other creates of the same account kept winning the count item, even after the retries.
    if (reasons?.includes('TransactionConflict') && !reasons.includes('ConditionalCheckFailed')) return 'busy';
    throw e;
  }
}

export async function getAccountDestination(accountId: string, id: string): Promise<AccountWebhookDestination | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: accountWebhookDestinationKey(accountId, id), ConsistentRead: true }));
  return AccountWebhookDestinationEntity.parseOrNull(Item);
}

/** Every destination of the account (one Query of its partition; an account has a handful at most). */
export async function listAccountDestinations(accountId: string, opts: { consistent?: boolean } = {}): Promise<AccountWebhookDestination[]> {
  const { pk, skPrefix } = accountWebhookDestinationsOf(accountId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ConsistentRead: opts.consistent ?? false,
  });
  return items.map(AccountWebhookDestinationEntity.parse);
}

/**
 * Apply `changes` to an existing destination (one conditional Update). Every update also closes the circuit
 * and clears the failure count: the account's way to resume deliveries after fixing its receiver.
 * Null when the account has no such destination.
 */
export async function updateAccountDestination(
  accountId: string,
  id: string,
  changes: AccountWebhookDestinationChanges,
  now: string,
): Promise<AccountWebhookDestination | null> {
  const set = ['updatedAt = :now', 'circuitState = :closed', 'consecutiveFailures = :zero'];
  const remove = ['circuitOpenedAt'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now, ':closed': 'closed', ':zero': 0 };
  if (changes.url !== undefined) {
    set.push('#url = :url');
    names['#url'] = 'url';
    values[':url'] = changes.url;
  }
  if (changes.eventTypes !== undefined) {
    set.push('eventTypes = :types');
    values[':types'] = changes.eventTypes;
  }
  if (changes.auth === null) remove.push('#auth');
  if (changes.auth) {
    set.push('#auth = :auth');
    values[':auth'] = changes.auth;
  }
  if (changes.auth !== undefined) names['#auth'] = 'auth';
  const updated = await updateIfCondition({
    TableName: tableName(),
    Key: accountWebhookDestinationKey(accountId, id),
    UpdateExpression: `SET ${set.join(', ')} REMOVE ${remove.join(', ')}`,
    ConditionExpression: 'attribute_exists(pk)',
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: values,
  });
  return updated ? AccountWebhookDestinationEntity.parse(updated) : null;
}

/**
 * Delete the destination and uncount it, in one transaction (the delete's condition is that it still exists, so
 * two concurrent deletes uncount it once). Null when the account has no such destination; else the deleted one.
 */
export async function deleteAccountDestination(accountId: string, id: string): Promise<AccountWebhookDestination | null> {
  const existing = await getAccountDestination(accountId, id);
  if (!existing) return null;
  const count: TransactItem = {
    Update: {
      TableName: tableName(),
      Key: accountWebhookCountKey(accountId),
      UpdateExpression: 'SET destinationCount = destinationCount - :one',
      ConditionExpression: 'destinationCount >= :one',
      ExpressionAttributeValues: { ':one': 1 },
    },
  };
  const parts: NamedParts<'destination' | 'count'> = [
    ['destination', [{ Delete: { TableName: tableName(), Key: accountWebhookDestinationKey(accountId, id), ConditionExpression: 'attribute_exists(pk)' } }]],
    ['count', [count]],
  ];
  try {
    await transactWrite(parts);
    return existing;
  } catch (e) {
    if (failedParts(e, parts)?.has('destination')) return null; // deleted meanwhile
    throw e;
  }
}

/** The circuit key of an account's destination (for `recordCircuitFailure` / `recordCircuitSuccess`). */
export const accountCircuitKey = (accountId: string, id: string) => accountWebhookDestinationKey(accountId, id);
