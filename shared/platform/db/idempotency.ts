/**
 * Idempotency records: one item per (organization, operation, key), in its own partition
 * (`IDEMPOTENCY#<orgId>#<operation>#<key>` / `IDEMPOTENCY`). An attempt claims the key with a conditional Put
 * (`processing`, the request's fingerprint, the attempt's id and a lock time) before doing anything outside the
 * platform, and completes it — with the answer it gave — in the same transaction as the result it protects, on
 * the condition that the claim is still its own. A claim whose lock time has passed may be taken over by a retry
 * (conditional on the old attempt id), so a crashed attempt never blocks its key for good.
 *
 * Records are kept as long as the resource they protect (no TTL): a key answers its first result for good.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, putNew, tableName, sendIfCondition } from './client.ts';
import type { TransactItem } from './types.ts';
import { answerText, IdempotencyEntity, type IdempotencyRecord, type StoredAnswer } from './idempotency.entity.ts';

/** The record's types, for the services that name them through this module (`idem.IdempotencyRecord`). */
export type { IdempotencyRecord, StoredAnswer } from './idempotency.entity.ts';

const key = IdempotencyEntity.key;

/**
 * The claim of a new key, for the transaction that also writes what the request starts; fails when the key is taken.
 * A request that finishes in that one transaction (nothing to wait for outside the platform) writes its record
 * `completed` with its answer at once.
 */
export function putIdempotencyClaim(r: IdempotencyRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      // Kept as the JSON text it was, as `completeIdempotency` keeps it.
      Item: IdempotencyEntity.item(r),
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/**
 * Claims `key` of `operation` once and for good, where nothing outside the platform follows and no answer is replayed
 * (a dashboard form that creates a secret shown once: sent again, it creates nothing). False when it was claimed before.
 */
export async function claimOnce(organizationId: string, operation: string, idempotencyKey: string, now = new Date().toISOString()): Promise<boolean> {
  const record: IdempotencyRecord = {
    organizationId,
    operation,
    key: idempotencyKey,
    requestHash: '',
    state: 'completed',
    attemptId: randomUUID(),
    lockedUntil: now,
    resourceId: '',
    answer: null,
    createdAt: now,
    updatedAt: now,
  };
  return putClaim(record);
}

/** Claims a new key with `record` (its own write): false when the key has a record already. */
export const putClaim = (record: IdempotencyRecord): Promise<boolean> => putNew(IdempotencyEntity.item(record));

/** Lets `key` of `operation` be claimed again (what `claimOnce` claimed was refused, so nothing was made under it). */
export async function forgetOnce(organizationId: string, operation: string, idempotencyKey: string): Promise<void> {
  await db.send(new DeleteCommand({ TableName: tableName(), Key: key({ organizationId, operation, key: idempotencyKey }) }));
}

/** The record of `key`, or null (a strongly consistent read: a claim just made is seen). */
export async function getIdempotencyRecord(organizationId: string, operation: string, idempotencyKey: string): Promise<IdempotencyRecord | null> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: key({ organizationId, operation, key: idempotencyKey }),
      ConsistentRead: true,
    }),
  );
  return IdempotencyEntity.parseOrNull(Item);
}

/**
 * Takes over a claim whose lock has passed: the new attempt owns it until `lockedUntil`. False when the claim
 * is no longer `old` (completed, taken over by another retry, or its lock was renewed).
 */
export async function takeOverClaim(old: IdempotencyRecord, attemptId: string, lockedUntil: string, now: string): Promise<boolean> {
  return sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: key(old),
      UpdateExpression: 'SET attemptId = :new, lockedUntil = :until, updatedAt = :now',
      ConditionExpression: '#state = :processing AND attemptId = :old AND lockedUntil <= :now',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':new': attemptId, ':until': lockedUntil, ':now': now, ':processing': 'processing', ':old': old.attemptId },
    }),
  );
}

/**
 * Lets a retry take the claim over at once (its lock ends now), when the attempt cannot know how its work ended
 * (the processor did not answer). Does nothing when the claim is no longer this attempt's.
 */
export async function releaseClaim(r: IdempotencyRecord, attemptId: string, now: string): Promise<void> {
  await sendIfCondition(
    new UpdateCommand({
      TableName: tableName(),
      Key: key(r),
      UpdateExpression: 'SET lockedUntil = :now, updatedAt = :now',
      ConditionExpression: '#state = :processing AND attemptId = :mine',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':now': now, ':processing': 'processing', ':mine': attemptId },
    }),
  );
}

/**
 * Lets the key go entirely, when nothing was made under the claim (the request was refused): the same key may then be
 * claimed again by any request, a corrected one too. Does nothing when the claim is no longer this attempt's.
 */
export async function dropClaim(r: IdempotencyRecord, attemptId: string): Promise<void> {
  await sendIfCondition(
    new DeleteCommand({
      TableName: tableName(),
      Key: key(r),
      ConditionExpression: '#state = :processing AND attemptId = :mine',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':processing': 'processing', ':mine': attemptId },
    }),
  );
}

/** Completes the claim with the answer the request gave, on the condition that it is still `attemptId`'s claim. */
export function completeIdempotency(r: IdempotencyRecord, attemptId: string, answer: StoredAnswer, now: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: key(r),
      UpdateExpression: 'SET #state = :completed, #answer = :answer, updatedAt = :now',
      ConditionExpression: '#state = :processing AND attemptId = :mine',
      ExpressionAttributeNames: { '#state': 'state', '#answer': 'answer' },
      // Kept as the JSON text it was, so a replay has the very same body (a map would not keep the field order).
      ExpressionAttributeValues: { ':completed': 'completed', ':answer': answerText(answer), ':now': now, ':processing': 'processing', ':mine': attemptId },
    },
  };
}
