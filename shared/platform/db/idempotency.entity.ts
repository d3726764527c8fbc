/**
 * An idempotency record: one item per (organization, operation, key), in its own partition
 * (`IDEMPOTENCY#<orgId>#<operation>#<key>` / `IDEMPOTENCY`). Its answer is kept as the JSON text it was, so a replay
 * has the very same body (a map would not keep the field order).
 */
import * as v from 'valibot';
import { entity } from './entity.ts';

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

/**
 * The idempotency record of one key of an organization for one operation (e.g. `transactions`): its own
 * partition, so a claim is one conditional Put.
 */
export const idempotencyKey = (organizationId: string, operation: string, key: string) => ({
  pk: `IDEMPOTENCY#${organizationId}#${operation}#${key}`,
  sk: 'IDEMPOTENCY',
});

/** The JSON text of a stored answer, as `putIdempotencyClaim` and `completeIdempotency` write it. */
export const answerText = (answer: StoredAnswer): string => JSON.stringify(answer);

const storedAnswer = v.union([
  v.object({ status: v.number(), error: v.object({ code: v.string(), message: v.string(), details: v.record(v.string(), v.unknown()) }) }),
  v.object({ status: v.number(), body: v.unknown() }),
]);

export const IdempotencyEntity = entity<IdempotencyRecord, Pick<IdempotencyRecord, 'organizationId' | 'operation' | 'key'>>({
  kind: 'idempotency',
  schema: v.object({
    organizationId: v.string(),
    operation: v.string(),
    key: v.string(),
    requestHash: v.string(),
    state: v.picklist(['processing', 'completed']),
    attemptId: v.string(),
    lockedUntil: v.string(),
    resourceId: v.string(),
    answer: v.nullish(v.pipe(v.string(), v.parseJson(), storedAnswer), null),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (r) => idempotencyKey(r.organizationId, r.operation, r.key),
  attributes: (r) => (r.answer ? { answer: answerText(r.answer) } : {}),
});
