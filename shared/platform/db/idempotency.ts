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
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, tableName } from './client.ts';
import * as keys from './keys.ts';
import type { TransactItem } from './types.ts';

export type IdempotencyState = 'processing' | 'completed';

/** The answer a completed request gave, replayed as it was: a success body, or an error of the face. */
export type StoredAnswer = { status: number; body: unknown } | { status: number; error: { code: string; message: string; details: Record<string, unknown> } };

export interface IdempotencyRecord {
  organizationId: string;
  /** What the key was used for (e.g. `transactions`): keys of different operations never meet. */
  operation: string;
  key: string;
  /** Fingerprint of the request (shared/payments/transactions.rules.ts `requestFingerprint`). */
  requestHash: string;
  state: IdempotencyState;
  /** The attempt that owns the claim; only it may complete it. */
  attemptId: string;
  /** Until when the owning attempt may still be running (ISO); after it, a retry may take the claim over. */
  lockedUntil: string;
  /** The record the request creates (e.g. the transaction's id), fixed at the claim. */
  resourceId: string;
  answer: StoredAnswer | null;
  createdAt: string;
  updatedAt: string;
}

const key = (r: Pick<IdempotencyRecord, 'organizationId' | 'operation' | 'key'>) => keys.idempotency(r.organizationId, r.operation, r.key);

function fromItem(i: Record<string, unknown>): IdempotencyRecord {
  return {
    organizationId: i.organizationId as string,
    operation: i.operation as string,
    key: i.key as string,
    requestHash: i.requestHash as string,
    state: i.state as IdempotencyState,
    attemptId: i.attemptId as string,
    lockedUntil: i.lockedUntil as string,
    resourceId: i.resourceId as string,
    answer: typeof i.answer === 'string' ? (JSON.parse(i.answer) as StoredAnswer) : null,
    createdAt: i.createdAt as string,
    updatedAt: i.updatedAt as string,
  };
}

/**
 * The claim of a new key, for the transaction that also writes what the request starts; fails when the key is taken.
 * A request that finishes in that one transaction (nothing to wait for outside the platform) writes its record
 * `completed` with its answer at once.
 */
export function putIdempotencyClaim(r: IdempotencyRecord): TransactItem {
  const { answer, ...rest } = r;
  return {
    Put: {
      TableName: tableName(),
      // Kept as the JSON text it was, as `completeIdempotency` keeps it.
      Item: { ...key(r), entity: 'idempotency', ...rest, ...(answer ? { answer: JSON.stringify(answer) } : {}) },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The record of `key`, or null (a strongly consistent read: a claim just made is seen). */
export async function getIdempotencyRecord(organizationId: string, operation: string, idempotencyKey: string): Promise<IdempotencyRecord | null> {
  const { Item } = await db.send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.idempotency(organizationId, operation, idempotencyKey),
      ConsistentRead: true,
    }),
  );
  return Item ? fromItem(Item) : null;
}

/**
 * Takes over a claim whose lock has passed: the new attempt owns it until `lockedUntil`. False when the claim
 * is no longer `old` (completed, taken over by another retry, or its lock was renewed).
 */
export async function takeOverClaim(old: IdempotencyRecord, attemptId: string, lockedUntil: string, now: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(old),
        UpdateExpression: 'SET attemptId = :new, lockedUntil = :until, updatedAt = :now',
        ConditionExpression: '#state = :processing AND attemptId = :old AND lockedUntil <= :now',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':new': attemptId, ':until': lockedUntil, ':now': now, ':processing': 'processing', ':old': old.attemptId },
      }),
    );
    return true;
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
}

/**
 * Lets a retry take the claim over at once (its lock ends now), when the attempt cannot know how its work ended
 * (the processor did not answer). Does nothing when the claim is no longer this attempt's.
 */
export async function releaseClaim(r: IdempotencyRecord, attemptId: string, now: string): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key(r),
        UpdateExpression: 'SET lockedUntil = :now, updatedAt = :now',
        ConditionExpression: '#state = :processing AND attemptId = :mine',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':now': now, ':processing': 'processing', ':mine': attemptId },
      }),
    );
  } catch (e) {
    if (!isConditionFailed(e)) throw e;
  }
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
      ExpressionAttributeValues: { ':completed': 'completed', ':answer': JSON.stringify(answer), ':now': now, ':processing': 'processing', ':mine': attemptId },
    },
  };
}
