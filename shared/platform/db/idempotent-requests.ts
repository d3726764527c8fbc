/**
 * What every idempotent request does with a key it has seen before (a charge, a refund): the stored answer when
 * the first request finished, a takeover of its claim when that request's attempt died (its lock passed), else a
 * short wait for the answer — and 422 when the request differs from the first one.
 */
import * as idem from './idempotency.ts';
import { DomainError } from '../../domain/errors.ts';
import { randomUUID } from 'node:crypto';

/**
 * How long an unfinished attempt owns its idempotency key: longer than the function may run (its timeout plus the
 * processor call), so a live attempt is never taken over; after it, a retry with the same key finishes the work.
 */
export const IDEMPOTENCY_LOCK_SECONDS = 30;

/** How long a request waits for a concurrent one with the same key to finish before answering 409. */
export const IN_PROGRESS_WAIT_MS = 1_500;

/** A fresh owner token of an attempt (the idempotency record names the attempt that may finish it). */
export const newAttemptId = (): string => randomUUID();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `seconds` after `from`, as an ISO timestamp (a claim's lock time). */
export const later = (from: Date, seconds: number): string => new Date(from.getTime() + seconds * 1000).toISOString();

/**
 * A new claim of `key` of `operation` for the request `requestHash`, naming the `resourceId` its work makes: owned by a
 * fresh attempt, locked for `lockSeconds` from `now` (0: open to be taken over at once).
 */
export const newClaim = (
  c: { organizationId: string; operation: string; key: string; requestHash: string; resourceId: string },
  now: Date,
  lockSeconds = IDEMPOTENCY_LOCK_SECONDS,
): idem.IdempotencyRecord => ({
  ...c,
  state: 'processing',
  attemptId: newAttemptId(),
  lockedUntil: later(now, lockSeconds),
  answer: null,
  createdAt: now.toISOString(),
  updatedAt: now.toISOString(),
});

export interface Resumption<T> {
  /** Reads the key's record again. */
  reread(): Promise<idem.IdempotencyRecord | null>;
  /**
   * Claims the key afresh for this request (a new claim, this attempt's): for an operation whose first request,
   * refused before it wrote anything, deletes its claim so that the key is free for the corrected request. A request
   * with the same key that waited for it then does the work itself. Null when another request claimed it first.
   */
  claimAfresh?(): Promise<idem.IdempotencyRecord | null>;
  /** Finishes the work the record's claim started, the claim now this attempt's. */
  finish(record: idem.IdempotencyRecord, attemptId: string): Promise<T>;
  /** The stored answer given again (a stored error is thrown). */
  replay(answer: idem.StoredAnswer): T;
  /** 422 `idempotency.key_reused`, and 409 `idempotency.in_progress`, in the caller's words. */
  keyReused(): Error;
  inProgress(): Error;
}

/**
 * Answers a repeat of the key `first` was recorded under (see the top of this module); `first` null when its record
 * was gone by the time this request read it (with `claimAfresh`: a first request refused, its claim deleted).
 */
export async function resumeKey<T>(first: idem.IdempotencyRecord | null, requestHash: string, r: Resumption<T>): Promise<T> {
  const deadline = Date.now() + IN_PROGRESS_WAIT_MS;
  let record: idem.IdempotencyRecord | null = first;
  for (;;) {
    if (!record && r.claimAfresh) {
      const claim = await r.claimAfresh();
      if (claim) return r.finish(claim, claim.attemptId);
      record = await r.reread();
      // Another request claimed the key first and, refused in turn, let it go again before this read: claim it anew.
      if (!record) {
        if (Date.now() >= deadline) throw r.inProgress();
        continue;
      }
    }
    if (!record) throw new Error('An idempotency record disappeared');
    if (record.requestHash !== requestHash) throw r.keyReused();
    if (record.state === 'completed' && record.answer) return r.replay(record.answer);
    const now = new Date();
    if (record.lockedUntil <= now.toISOString()) {
      const attemptId = newAttemptId();
      if (await idem.takeOverClaim(record, attemptId, later(now, IDEMPOTENCY_LOCK_SECONDS), now.toISOString())) return r.finish(record, attemptId);
    }
    if (Date.now() >= deadline) throw r.inProgress();
    await sleep(100);
    record = await r.reread();
  }
}

/** A stored answer given again: its status and body, or its error thrown as it was first answered. */
export function storedAnswer(answer: idem.StoredAnswer): { status: number; body: unknown } {
  if ('error' in answer) throw new DomainError(answer.status, answer.error.code, answer.error.message, answer.error.details);
  return answer;
}
