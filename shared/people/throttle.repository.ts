/**
 * Attempt counters: one item per (scope, key, fixed time window), holding how many attempts the window has
 * taken. A slot is taken with one conditional atomic increment (`ADD` under the condition that the count is
 * below the limit), so concurrent attempts can never take more slots than the limit — there is no read before
 * the write. A slot is given back with an atomic decrement. DynamoDB's TTL removes a counter an hour after its
 * window ends; until then a later window's counter is simply another item.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { db, tableName, sendIfCondition } from '../platform/db/client.ts';
import { ttlAttribute } from '../platform/db/table.ts';
import { attemptCountSchema, knownDevice, throttle } from './throttle.entity.ts';

export interface AttemptCounter {
  /** What is counted, e.g. `sign-in-email`. */
  readonly scope: string;
  /** Whose attempts, within the scope (an e-mail's hash, an IP address, an account id). */
  readonly key: string;
  /** Start of the window, epoch seconds. */
  readonly windowStart: number;
  /** End of the window, epoch seconds. */
  readonly windowEnd: number;
}

/** Seconds a counter is kept after its window ends (for an operator to look at), before TTL deletes it. */
const KEEP_AFTER_WINDOW_SECONDS = 3600;

/** Take one attempt slot of the counter's window: true when taken, false when the window is at `limit` already. */
export async function takeAttemptSlot(counter: AttemptCounter, limit: number): Promise<boolean> {
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: throttle(counter.scope, counter.key, counter.windowStart),
      UpdateExpression: 'ADD attempts :one SET entity = :entity, #ttl = :ttl',
      ConditionExpression: 'attribute_not_exists(attempts) OR attempts < :limit',
      ExpressionAttributeNames: { '#ttl': ttlAttribute },
      ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':entity': 'throttle', ':ttl': counter.windowEnd + KEEP_AFTER_WINDOW_SECONDS },
    }),
  );
}

/** Give a taken slot back (the attempt succeeded, or another counter refused it). Never goes below zero. */
export async function giveAttemptSlotBack(counter: AttemptCounter): Promise<void> {
  // Given back once however many times the SDK sends it (`sendIfCondition`); nothing to give back is no failure.
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: throttle(counter.scope, counter.key, counter.windowStart),
      UpdateExpression: 'ADD attempts :minusOne',
      ConditionExpression: 'attempts > :zero',
      ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },
    }),
  );
}

/** How many attempts the counter's window holds (0 when it has none). For operators and tests. */
export async function attemptsIn(counter: AttemptCounter): Promise<number> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: throttle(counter.scope, counter.key, counter.windowStart),
      ConsistentRead: true,
    }),
  );
  return v.parse(attemptCountSchema, Item ?? {}).attempts;
}

/** Whether someone signed in with the address of `emailKey` from the browser of `deviceHash` within its TTL. */
export async function isKnownDevice(deviceHash: string, emailKey: string, nowSeconds: number): Promise<boolean> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: knownDevice(deviceHash, emailKey),
      ProjectionExpression: '#ttl',
      ExpressionAttributeNames: { '#ttl': ttlAttribute },
    }),
  );
  // TTL deletes an expired item some time after it expires: until then it is expired all the same.
  return Item !== undefined && Number(Item[ttlAttribute]) > nowSeconds;
}

/** Remembers that someone signed in with the address of `emailKey` from the browser of `deviceHash`, for `ttlSeconds`. */
export async function rememberDevice(deviceHash: string, emailKey: string, nowSeconds: number, ttlSeconds: number): Promise<void> {
  await db.send(
    new PutCommand({ TableName: tableName(), Item: { ...knownDevice(deviceHash, emailKey), entity: 'device', [ttlAttribute]: nowSeconds + ttlSeconds } }),
  );
}
