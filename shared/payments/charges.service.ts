/**
 * Charging a card once: the engine under `POST /api/transactions` and the checkout confirms. A caller describes
 * its kind of charge (`ChargeKind`: its idempotency operation, what its settlement writes besides the
 * transaction, and its success answer) and, for a new key, the charge itself (`NewCharge`); the engine does the
 * rest, the same way for all of them (docs/design/idempotency.md):
 *
 * 1. At once: the key's idempotency record, and the new charge the caller prepares.
 * 2. A key seen before: the same request replays the first answer (or waits briefly for it, or takes over a claim
 *    whose attempt died); a different request is 422 `idempotency.key_reused`.
 * 3. A new key: one transaction claims it (`processing`, the request's fingerprint), writes the transaction
 *    `sending` and whatever the caller claims with it (a token's single use, a new customer, an order's payment
 *    lock, a promo code's redemption) — so nothing that can be refused is left for after the money moved.
 * 4. The processor charges under a key derived from (organization, operation, key): a retry never charges twice.
 * 5. One transaction records the answer: the transaction settled, the idempotency record completed with the
 *    answer (on the condition that the claim is still this attempt's), the customer's revenue and the payment's
 *    ledger bookings (on success: shared/money/ledger.service.ts), `payment.completed` or `payment.failed` in the
 *    outbox, the processor id's pointer, and the kind's own items.
 *
 * A request with nothing to charge (`NothingToCharge`: a trial started at checkout) stops at step 3: its one
 * transaction writes the key `completed` with its answer together with what the request writes.
 */
import { config } from '../platform/config.ts';
import {
  backoff,
  cancellationReasons,
  CONTENDED,
  CONTENTION_BUDGET_MS,
  isContentionOnly,
  type NamedParts,
  partReasons,
  transactWrite,
  tryTransactWrite,
  untilLanded,
} from '../platform/db/transactions.ts';
import { recordCustomerPayment } from '../customers/index.ts';
import * as idem from '../platform/db/idempotency.ts';
import * as repo from './transactions.repository.ts';
import { taxInPayment, type Transaction } from './transaction.entity.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { DomainError } from '../domain/errors.ts';
import { inProgressError, keyReusedError } from '../domain/idempotency.ts';
import type { Merchant } from '../domain/merchants.ts';
import { toMajorUnits } from '../domain/money.ts';
import { INITIAL_STATUS, processorIdempotencyKey, settlementOf } from './transactions.rules.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import { logger } from '../platform/observability.ts';
import { type ChargeResult, type Processor, processorFor } from '../processor/index.ts';
import { faultPoints } from './fault-points.service.ts';
import { later, resumeKey, storedAnswer, IDEMPOTENCY_LOCK_SECONDS, newAttemptId } from '../platform/db/idempotent-requests.ts';
import { paymentBookings } from '../money/index.ts';

/** What a request answers when it succeeds (errors are thrown, replays included). */
export interface ChargeAnswer {
  status: number;
  body: unknown;
}

/** A kind of charge: where its keys live, what its settlement writes besides, and what success answers. */
export interface ChargeKind {
  /** The idempotency operation its keys belong to (keys of different operations never meet). */
  operation: string;
  /**
   * Items the settlement writes besides the engine's (e.g. an order marked paid, a promo redemption given back, the
   * subscription a paid checkout starts), built from the settled transaction alone — so that the reconciler,
   * settling it later, writes the very same — and its organization.
   */
  settleItems(settled: Transaction, organization: Merchant): TransactItem[] | Promise<TransactItem[]>;
  /** The success answer, stored under the key and replayed. */
  success(settled: Transaction): ChargeAnswer;
  /** The refusal of a key seen with another request (default: 422 `idempotency.key_reused`, naming `idempotencyKey`). */
  keyReused?: () => Error;
}

/** A charge under a new key: its transaction (`sending`) and what the claim writes with it. */
export interface NewCharge {
  transaction: Transaction;
  /** Written in the claim's transaction, after the claim and the transaction. */
  claimItems: TransactItem[];
  /**
   * Why the claim failed when one of `claimItems` was refused (`reasons` indexes `claimItems`): the error to
   * answer, `retry` to prepare the charge again (once), or null when none of them was at fault.
   */
  refusal?(reasons: readonly string[], e: unknown): Promise<unknown | 'retry' | null>;
}

/**
 * A request under a new key that has nothing to charge (a trial without a setup fee started at checkout): what it
 * writes, in one transaction with its key's record — written `completed` with `answer` at once, so a repeat of the
 * request replays the answer as it would a charge's. No transaction, no processor call.
 */
export interface NothingToCharge {
  nothingToCharge: true;
  /** The record the request makes (its key's `resourceId`). */
  resourceId: string;
  /** Written in the key's transaction, after the key's record. */
  items: TransactItem[];
  answer: ChargeAnswer;
  /** As `NewCharge.refusal`, `reasons` indexing `items`. */
  refusal?(reasons: readonly string[], e: unknown): Promise<unknown | 'retry' | null>;
}

const wording = { key: 'idempotencyKey', request: 'request', thing: 'payment', result: 'result' };
const keyReused = () => keyReusedError(wording);
const inProgress = () => inProgressError(wording);

/** The answer stored under the key, given again: the same status and body, or the same error. */
function replay(answer: idem.StoredAnswer): ChargeAnswer {
  const { status, body } = storedAnswer(answer);
  return { status, body };
}

/** The processor key of a charge: its organization, its kind's operation and its idempotency key. */
export const processorKeyOf = (kind: ChargeKind, t: Transaction) => processorIdempotencyKey(t.organizationId, kind.operation, t.idempotencyKey);

export interface ChargeRequest {
  kind: ChargeKind;
  organization: Merchant;
  /** The idempotency key, within the kind's operation. */
  key: string;
  /** The request's fingerprint: a repeat of the key with another fingerprint is 422 `idempotency.key_reused`. */
  requestHash: string;
  /** Builds the charge for a new key (throws the request's refusals: a replay wins over them). */
  prepare(now: string): Promise<NewCharge | NothingToCharge>;
}

/**
 * Charges once under (organization, operation, key). Throws 402 `payment.declined` / 502 `payment.processor_error`
 * (recorded, and replayed as they were), 502 `payment.processor_unreachable` (no answer: retry with the same
 * key), 409 `idempotency.in_progress`, 422 `idempotency.key_reused`, 503 `payments.processor_unavailable` (before
 * anything is read or written), and whatever `prepare` and `refusal` throw.
 */
export async function charge(request: ChargeRequest): Promise<ChargeAnswer> {
  const processor = processorFor(config.stage);
  const keyRecord = () => idem.getIdempotencyRecord(request.organization.id, request.kind.operation, request.key);
  const deadline = Date.now() + CONTENTION_BUDGET_MS;
  let retried = false;
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1) await backoff(Math.min(attempt, 5));
    const started = new Date();
    const now = started.toISOString();
    // The key is not read first: a new key (nearly every request) is claimed by the transaction below, which names
    // the key's item when another request holds it, and only then is its record read and answered.
    const prepared = await request.prepare(now).then(
      (c) => ({ charge: c }),
      (error: unknown) => ({ error }),
    );
    // A refusal may be the doing of a request with this key that claimed it before (its token used, its session
    // locked): the key's record is read, and a replay wins over the refusal.
    if ('error' in prepared) {
      const first = await keyRecord();
      if (first) return resume(processor, request, first);
      throw prepared.error;
    }
    const made = prepared.charge;

    const attemptId = newAttemptId();
    const record = (resourceId: string, answer: idem.StoredAnswer | null): idem.IdempotencyRecord => ({
      organizationId: request.organization.id,
      operation: request.kind.operation,
      key: request.key,
      requestHash: request.requestHash,
      state: answer ? 'completed' : 'processing',
      attemptId,
      lockedUntil: answer ? now : later(started, IDEMPOTENCY_LOCK_SECONDS),
      resourceId,
      answer,
      createdAt: now,
      updatedAt: now,
    });
    const free = 'nothingToCharge' in made;
    const claim = free ? record(made.resourceId, made.answer) : record(made.transaction.id, null);
    const parts: NamedParts<'key' | 'transaction' | 'request'> = [
      ['key', [idem.putIdempotencyClaim(claim)]],
      ['transaction', free ? [] : [repo.putNewTransaction(made.transaction)]],
      ['request', free ? made.items : made.claimItems],
    ];
    try {
      await transactWrite(parts);
    } catch (e) {
      const reasons = cancellationReasons(e);
      if (!reasons) throw e;
      // Another request with this key got there first (or is writing it now): answer as a repeat of it.
      if (
        partReasons(reasons, parts)
          .get('key')
          ?.some((r) => r !== 'None')
      ) {
        const winner = await keyRecord();
        if (winner) return resume(processor, request, winner);
      }
      const refused = made.refusal ? await made.refusal(partReasons(reasons, parts).get('request') ?? [], e) : null;
      if (refused === 'retry' && !retried) {
        retried = true;
        continue;
      }
      if (refused && refused !== 'retry') throw refused;
      // Only concurrent writes to the same items (a promo code's count, a customer) stood in the way: try again.
      if (isContentionOnly(reasons)) {
        if (Date.now() < deadline) continue;
        throw inProgress();
      }
      throw e;
    }
    if (free) return made.answer;
    return chargeAndRecord(processor, request, claim, attemptId, made.transaction);
  }
}

/**
 * Finishes the charge already claimed under `key` (its request died, or is still running): waits for its answer,
 * takes its claim over once the lock has passed, and answers (or throws) what it recorded. Null when nothing was
 * ever claimed under the key.
 */
export async function resumeCharge(kind: ChargeKind, organization: Merchant, key: string, requestHash: string): Promise<ChargeAnswer | null> {
  const existing = await idem.getIdempotencyRecord(organization.id, kind.operation, key);
  if (!existing) return null;
  return resume(processorFor(config.stage), { kind, organization, key, requestHash, prepare: () => Promise.reject(new Error('no new charge')) }, existing);
}

/** A key seen before: see `resumeKey` (a takeover finishes the claimed transaction's charge). */
const resume = (processor: Processor, request: ChargeRequest, first: idem.IdempotencyRecord): Promise<ChargeAnswer> =>
  resumeKey(first, request.requestHash, {
    reread: () => idem.getIdempotencyRecord(request.organization.id, request.kind.operation, first.key),
    finish: async (record, attemptId) => {
      const transaction = await repo.getTransaction(request.organization.id, record.resourceId);
      if (!transaction) throw new Error(`The claim of transaction ${record.resourceId} has no transaction`);
      return chargeAndRecord(processor, request, record, attemptId, transaction);
    },
    replay,
    keyReused: request.kind.keyReused ?? keyReused,
    inProgress,
  });

/** Steps 4 and 5: the charge under the derived key, then the transaction that records its answer. */
async function chargeAndRecord(
  processor: Processor,
  request: ChargeRequest,
  claim: idem.IdempotencyRecord,
  attemptId: string,
  t: Transaction,
): Promise<ChargeAnswer> {
  const { kind, organization } = request;
  let result: ChargeResult;
  try {
    result = await processor.charge({
      reference: t.processorReference,
      amountMinor: t.amountMinor,
      currency: t.currency,
      idempotencyKey: processorKeyOf(kind, t),
      ...(t.description ? { description: t.description } : {}),
    });
  } catch (e) {
    logger.warn('processor call failed', { transactionId: t.id, errorName: (e as Error).name });
    await idem.releaseClaim(claim, attemptId, new Date().toISOString());
    throw new DomainError(
      502,
      'payment.processor_unreachable',
      'The processor did not answer, so the outcome of this payment is not known yet. Retry with the same request: it finishes this payment and never charges twice.',
      { transactionId: t.id },
    );
  }
  faultPoints.afterProcessor?.('charge', t.id);
  return recordCharge(kind, organization, claim, attemptId, t, result);
}

/**
 * Step 5, also the reconciler's: records the processor's `result` of the claimed charge `t` in one transaction —
 * the transaction settled, the key completed with the answer (on the condition that the claim is still
 * `attemptId`'s), the customer's revenue and the ledger (on success), `payment.completed` or `payment.failed`, the
 * processor id's pointer and the kind's own items — retried while only contention stands in the way. Answers the
 * request's answer; 409 `idempotency.in_progress` when it could not land in time (the reconciler settles it then).
 */
export async function recordCharge(
  kind: ChargeKind,
  organization: Merchant,
  claim: idem.IdempotencyRecord,
  attemptId: string,
  t: Transaction,
  result: ChargeResult,
): Promise<ChargeAnswer> {
  const settlement = settlementOf(result);
  const at = new Date().toISOString();
  const settled: Transaction = {
    ...t,
    status: settlement.status,
    externalTransactionId: settlement.externalTransactionId,
    declineReason: settlement.declineReason,
    processedAt: at,
    updatedAt: at,
  };
  const answer: idem.StoredAnswer =
    settlement.httpStatus === 201
      ? kind.success(settled)
      : {
          status: settlement.httpStatus,
          error:
            settlement.httpStatus === 402
              ? {
                  code: 'payment.declined',
                  message: `The payment was declined: ${settlement.declineReason.message}`,
                  details: { transactionId: t.id, declineCode: settlement.declineReason.code },
                }
              : {
                  code: 'payment.processor_error',
                  message: `The processor could not process the payment, and nothing was charged: ${settlement.declineReason.message}`,
                  details: { transactionId: t.id, errorCode: settlement.declineReason.code },
                },
        };

  const extra = { amount: toMajorUnits(t.amountMinor, t.currency), currency: t.currency, declineReason: settlement.declineReason?.code ?? null };
  const common = {
    transactionId: t.id,
    externalTransactionId: settled.externalTransactionId,
    occurredAt: at,
    orderId: t.orderId,
    customerId: t.customerId,
    subscriptionId: t.subscriptionId,
  };
  const items: TransactItem[] = [
    repo.settleTransaction(settled, INITIAL_STATUS),
    idem.completeIdempotency(claim, attemptId, answer, at),
    settlement.status === 'completed'
      ? outboxEvent('payment.completed', organization, { ...common, amount: extra.amount, currency: t.currency.toLowerCase() }, at, extra)
      : outboxEvent('payment.failed', organization, common, at, extra),
    ...(settled.externalTransactionId ? [repo.putExternalReference(settled)] : []),
    ...(await kind.settleItems(settled, organization)),
  ];
  if (settlement.status === 'completed') {
    if (t.customerId) {
      const paidWith = t.paymentInstrumentId ? { method: t.paymentMethod, id: t.paymentInstrumentId } : undefined;
      items.push(recordCustomerPayment(t.organizationId, t.customerId, t.amountMinor, t.currency, at, paidWith));
    }
    items.push(...paymentBookings(organization, { ...settled, taxMinor: taxInPayment(settled) }, at));
  }
  const landed = await untilLanded(async () => {
    const refused = await tryTransactWrite([['settlement', items]]);
    if (!refused) return true;
    return isContentionOnly(refused.reasons) ? CONTENDED : false;
  });
  if (landed === true) return replay(answer);
  if (landed === CONTENDED) logger.warn('charge settlement kept conflicting; the reconciler settles it', { transactionId: t.id });
  // The claim is no longer this attempt's (a retry took it over): answer what that retry recorded.
  const record = await idem.getIdempotencyRecord(t.organizationId, kind.operation, t.idempotencyKey);
  if (record?.state === 'completed' && record.answer) return replay(record.answer);
  throw inProgress();
}
