/**
 * Refunds of a transaction, full or partial, from the organization API, the dashboard or the processor
 * (docs/reference-payments.md, "Refunds"). A refund runs in three steps:
 *
 * 1. Claim: one transaction writes the refund `pending`, reserves its amount on the transaction item (on the
 *    condition that the refunds stay within the captured amount and the transaction is refundable) and, with an
 *    `Idempotency-Key`, claims the key — so concurrent refunds can never add up to more than was captured.
 * 2. The processor refunds under a key derived from the refund's id (a retry never refunds twice).
 * 3. Settle, once (the refund must still be pending): `refunded` — the transaction's refunded total and status
 *    (`refunded` / `partially-refunded`), the ledger's refund journal with its balance change (conditional on the
 *    available funds it took from), the key's answer and, for a processor refund only, `payment.refunded` in the
 *    outbox; or `failed` — the reservation given back. Contention (other refunds and payments of the merchant) is
 *    retried with backoff, reading again what the conditions depend on; what still has not landed is left to the
 *    reconciler (shared/reconciliation/reconcile.service.ts), which settles it from the processor's record.
 */
import { config } from '../platform/config.ts';
import { CONTENDED, failedParts, isContentionOnly, type NamedParts, partReasons, tryTransactWrite, untilLanded } from '../platform/db/transactions.ts';
import * as idem from '../platform/db/idempotency.ts';
import { creditedChargeInvoice } from '../invoicing/index.ts';
import { getConditionBalance, bookDebit, refundJournal } from '../money/index.ts';
import { getMerchant } from '../people/index.ts';
import { getDisputeClaim, noOpenDisputeOn } from './disputes.repository.ts';
import * as repo from './refunds.repository.ts';
import * as transactions from './transactions.repository.ts';
import { taxInPayment, type Transaction } from './transaction.entity.ts';
import { invoicePaidBy } from './transactions.service.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { ConflictError, DomainError, UnprocessableError } from '../domain/errors.ts';
import { inProgressError, keyReusedError } from '../domain/idempotency.ts';
import type { Merchant } from '../domain/merchants.ts';
import { toMajorUnits, toMinorUnits } from '../domain/money.ts';
import {
  newRefundId,
  processorRefundKey,
  refundableMinor,
  REFUNDS_MOVE_STATUS_FROM,
  statusAfterRefunds,
  type Refund,
  type RefundSource,
} from './refunds.rules.ts';
import { isRefundableStatus, REFUNDABLE_STATUSES, requestFingerprint } from './transactions.rules.ts';
import { transactionNotFound } from '../domain/unknown-ids.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import { logger } from '../platform/observability.ts';
import { type RefundProcessor, type RefundResult, refundProcessorFor } from '../processor/index.ts';
import { faultPoints } from './fault-points.service.ts';
import { later, resumeKey, storedAnswer, IDEMPOTENCY_LOCK_SECONDS, newAttemptId } from '../platform/db/idempotent-requests.ts';

/** The idempotency operation refund keys belong to (scoped per organization, apart from payments' keys). */
export const REFUND_OPERATION = 'refunds';

export interface RefundRequest {
  /** Major units of the transaction's currency; absent: all that is left to refund. */
  amount?: number | undefined;
  reason?: string | null | undefined;
}

/** A refund as the organization API and the dashboard show it. */
export const refundView = (r: Refund) => ({
  id: r.id,
  transactionId: r.transactionId,
  organizationId: r.organizationId,
  amount: toMajorUnits(r.amountMinor, r.currency),
  currency: r.currency,
  reason: r.reason,
  source: r.source,
  status: r.status,
  externalRefundId: r.externalRefundId,
  failureReason: r.failure,
  idempotencyKey: r.idempotencyKey,
  processedAt: r.processedAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
export type RefundView = ReturnType<typeof refundView>;

/** What a refund request answers: the refund, and whether it is the replay of an earlier request with the key. */
export interface RefundAnswer {
  refund: RefundView;
  replayed: boolean;
}

const notRefundable = (status: string) =>
  new UnprocessableError('refund.transaction_not_refundable', `Only completed or partially refunded transactions can be refunded; this one is ${status}.`, {
    status,
  });
/** `takenMinor`: what a decided dispute took of the payment, which no refund gives back again. */
const exceeds = (t: Transaction, takenMinor = 0) => {
  const left = refundableMinor(t, takenMinor);
  return new UnprocessableError(
    'refund.amount_exceeds_refundable',
    left === 0
      ? 'Nothing is left to refund of this transaction (refunds being processed count).'
      : `The refund is more than what is left to refund of this transaction: at most ${toMajorUnits(left, t.currency)} ${t.currency}.`,
    { refundableAmount: toMajorUnits(left, t.currency), currency: t.currency },
  );
};
const wording = { key: 'Idempotency-Key', request: 'refund request', thing: 'refund', result: 'result' };
const keyReused = () => keyReusedError(wording);
const inProgress = () => inProgressError(wording);

function replay(answer: idem.StoredAnswer): RefundAnswer {
  return { refund: storedAnswer(answer).body as RefundView, replayed: true };
}

/** A key's claim, owned by the attempt `attemptId`. */
export interface Claim {
  record: idem.IdempotencyRecord;
  attemptId: string;
}

/** One refund of `refundsClaimedWith`: of `amountMinor` of the transaction `transaction` (as read), under its own id and key. */
export interface PlannedRefund {
  transaction: Transaction;
  /** Fixed by the change that records it. */
  refundId: string;
  amountMinor: number;
  idempotencyKey: string;
  /** What a decided dispute of the transaction took of it, as read (`getDisputeClaim`); null when it has no dispute. */
  takenMinor: number | null;
}

/** What refunds are claimed together with: a change of another record (a subscription's prorated cancellation). */
export interface RefundsClaimedWith {
  /** Written in the refunds' claim transaction, each with its own condition. */
  items: TransactItem[];
  /** What to answer when one of `items` was refused: nothing was refunded. */
  refused(): Error;
}

/**
 * Refunds `input.amount` (default: all that is left) of the organization's transaction `transactionId`.
 * Throws 404 `transaction.not_found`; 422 `refund.transaction_not_refundable`, `refund.amount_exceeds_refundable`,
 * `refund.invalid_amount`, `idempotency.key_reused`; 409 `idempotency.in_progress`, `refund.conflict`; 502
 * `refund.processor_unreachable`; 503 `payments.processor_unavailable` (before anything is read or written).
 * A refund the processor refuses is answered as the refund with status `failed`.
 */
export async function createRefund(
  organization: Merchant,
  transactionId: string,
  input: RefundRequest,
  source: RefundSource,
  idempotencyKey?: string,
): Promise<RefundAnswer> {
  const processor = refundProcessorFor(config.stage);
  const reason = input.reason?.trim() || null;
  const requestHash = requestFingerprint({ transactionId, amount: input.amount ?? null, reason, source });
  const [existing, t, dispute] = await Promise.all([
    idempotencyKey ? idem.getIdempotencyRecord(organization.id, REFUND_OPERATION, idempotencyKey) : null,
    transactions.getTransaction(organization.id, transactionId),
    getDisputeClaim(transactionId),
  ]);
  if (existing) return resume(processor, organization, transactionId, requestHash, existing);
  if (!t) throw transactionNotFound();
  if (!isRefundableStatus(t.status) || !t.externalTransactionId) throw notRefundable(t.status);
  // An open dispute holds the payment's money; a decided one leaves what it did not take (a lost one took its amount).
  if (dispute && !dispute.decidedAt) throw transactionDisputed();
  const taken = dispute ? dispute.takenMinor : 0;
  const left = refundableMinor(t, taken);
  let amountMinor: number;
  if (input.amount === undefined) {
    amountMinor = left;
    if (amountMinor === 0) throw exceeds(t, taken);
  } else {
    const minor = toMinorUnits(input.amount, t.currency);
    if (minor === null || minor <= 0) {
      throw new UnprocessableError('refund.invalid_amount', `The amount must be more than 0 with at most the decimals of ${t.currency}.`, {
        currency: t.currency,
      });
    }
    amountMinor = minor;
    if (amountMinor > left) throw exceeds(t, taken);
  }

  const started = new Date();
  const now = started.toISOString();
  const refund = pendingRefund(newRefundId(), t, amountMinor, { reason, source }, idempotencyKey ?? null, now);
  const claim = idempotencyKey ? keyClaim(organization.id, idempotencyKey, requestHash, refund.id, started) : null;
  const parts: NamedParts<'key' | 'refund' | 'dispute' | 'reservation'> = [
    ['key', claim ? [idem.putIdempotencyClaim(claim.record)] : []],
    ['refund', [repo.putNewRefund(refund)]],
    ['dispute', [noOpenDisputeOn(t.id, dispute ? dispute.takenMinor : null)]],
    ['reservation', [transactions.reserveRefund(t, amountMinor, REFUNDABLE_STATUSES, now, taken)]],
  ];
  // Other refunds of the transaction claim and settle on the same item: contention is retried until the claim lands.
  const claimed = await untilLanded(async (): Promise<'claimed' | idem.IdempotencyRecord | typeof CONTENDED> => {
    const refused = await tryTransactWrite(parts);
    if (!refused) return 'claimed';
    const { reasons } = refused;
    if (
      claim &&
      partReasons(reasons, parts)
        .get('key')
        ?.some((r) => r !== 'None')
    ) {
      // The key is taken, or being written by a request with the same key right now.
      return (await idem.getIdempotencyRecord(organization.id, REFUND_OPERATION, idempotencyKey!)) ?? CONTENDED;
    }
    const failed = failedParts(reasons, parts)!;
    if (failed.has('dispute')) throw transactionDisputed();
    if (failed.has('reservation')) throw await reservationRefusal(organization.id, transactionId, taken);
    if (isContentionOnly(reasons)) return CONTENDED;
    throw refused.error;
  });
  if (claimed === CONTENDED) {
    throw contended();
  }
  if (claimed !== 'claimed') return resume(processor, organization, transactionId, requestHash, claimed);
  return processAndSettle(processor, organization, t, refund, claim);
}

/** The refusal of a refund of a disputed payment (the dashboard says it before the confirmation step too). */
export const transactionDisputed = () =>
  new UnprocessableError('refund.transaction_disputed', 'This payment is disputed: its money is held for the dispute, so it cannot be refunded.');
const contended = () =>
  new ConflictError(
    'refund.conflict',
    'Other refunds of this transaction were being recorded at the same time, and nothing was refunded: send the request again.',
  );

/** A refund of `amountMinor` of `t` as its claim writes it: `pending`, at `now`. */
const pendingRefund = (
  id: string,
  t: Transaction,
  amountMinor: number,
  request: { reason: string | null; source: RefundSource },
  idempotencyKey: string | null,
  now: string,
): Refund => ({
  id,
  transactionId: t.id,
  organizationId: t.organizationId,
  amountMinor,
  currency: t.currency,
  reason: request.reason,
  source: request.source,
  status: 'pending',
  externalRefundId: null,
  failure: null,
  idempotencyKey,
  processedAt: null,
  createdAt: now,
  updatedAt: now,
});

/** Why a refund's reservation on the transaction `transactionId` was refused, read again: not refundable now, or not that much. */
async function reservationRefusal(organizationId: string, transactionId: string, takenMinor = 0): Promise<Error> {
  const now = await transactions.getTransaction(organizationId, transactionId);
  if (!now) return transactionNotFound();
  if (!isRefundableStatus(now.status)) return notRefundable(now.status);
  return exceeds(now, takenMinor);
}

/** The claim of the idempotency key `key` for the refund `refundId`, by a new attempt started at `started`. */
function keyClaim(organizationId: string, key: string, requestHash: string, refundId: string, started: Date): Claim {
  const at = started.toISOString();
  const attemptId = newAttemptId();
  return {
    attemptId,
    record: {
      organizationId,
      operation: REFUND_OPERATION,
      key,
      requestHash,
      state: 'processing',
      attemptId,
      lockedUntil: later(started, IDEMPOTENCY_LOCK_SECONDS),
      resourceId: refundId,
      answer: null,
      createdAt: at,
      updatedAt: at,
    },
  };
}

/**
 * Refunds each of `planned` (its transactions as read: refundable, each amount at most what is left of it), claimed
 * in one transaction with `claimWith.items`, so the refunds are made if and only if the change they belong to is
 * written; then each is processed and settled in turn, as `createRefund`'s. Throws `claimWith.refused()` when the
 * change lost its race, 422 `refund.transaction_disputed` when one of the payments is disputed, the reservation's
 * refusals (`refund.transaction_not_refundable`, `refund.amount_exceeds_refundable`) when one of them was refunded
 * or changed since it was read, and 409 `refund.conflict` when other refunds kept landing first: nothing was
 * claimed. Once claimed, a refund whose processor call has no answer yet is left to the reconciler (as its key's
 * claim says).
 */
export async function refundsClaimedWith(
  organization: Merchant,
  planned: PlannedRefund[],
  request: { reason: string; source: RefundSource },
  claimWith: RefundsClaimedWith,
): Promise<void> {
  const processor = refundProcessorFor(config.stage);
  const started = new Date();
  const now = started.toISOString();
  const claims = planned.map((p) => {
    const t = p.transaction;
    const refund = pendingRefund(p.refundId, t, p.amountMinor, request, p.idempotencyKey, now);
    const requestHash = requestFingerprint({
      transactionId: t.id,
      amount: toMajorUnits(p.amountMinor, t.currency),
      reason: request.reason,
      source: request.source,
    });
    return { t, taken: p.takenMinor, refund, claim: keyClaim(organization.id, p.idempotencyKey, requestHash, refund.id, started) };
  });
  // The change they are claimed with goes first: when it lost its race, that is the refusal (whatever else failed).
  type Part = 'with' | `key${number}` | `refund${number}` | `dispute${number}` | `reservation${number}`;
  const parts: NamedParts<Part> = [
    ['with', claimWith.items],
    ...claims.flatMap(
      ({ t, taken, refund, claim }, n): NamedParts<Part> => [
        [`key${n}`, [idem.putIdempotencyClaim(claim.record)]],
        [`refund${n}`, [repo.putNewRefund(refund)]],
        [`dispute${n}`, [noOpenDisputeOn(t.id, taken)]],
        [`reservation${n}`, [transactions.reserveRefund(t, refund.amountMinor, REFUNDABLE_STATUSES, now, taken ?? 0)]],
      ],
    ),
  ];
  const claimed = await untilLanded(async (): Promise<true | typeof CONTENDED> => {
    const refused = await tryTransactWrite(parts);
    if (!refused) return true;
    const failed = failedParts(refused.reasons, parts)!;
    if (failed.has('with')) throw claimWith.refused();
    if (claims.some((_, n) => failed.has(`dispute${n}`))) throw transactionDisputed();
    const reserved = claims.findIndex((_, n) => failed.has(`reservation${n}`));
    if (reserved >= 0) throw await reservationRefusal(organization.id, claims[reserved]!.t.id, claims[reserved]!.taken ?? 0);
    if (isContentionOnly(refused.reasons)) return CONTENDED;
    throw refused.error;
  });
  if (claimed === CONTENDED) throw contended();
  // One after the other: their settlements book against the same balance.
  for (const { t, refund, claim } of claims) {
    try {
      await processAndSettle(processor, organization, t, refund, claim);
    } catch (e) {
      if (!(e instanceof DomainError && (e.code === 'refund.processor_unreachable' || e.code === 'idempotency.in_progress'))) throw e;
    }
  }
}

/** A key seen before: see `resumeKey` (a takeover finishes the claimed refund). */
const resume = (
  processor: RefundProcessor,
  organization: Merchant,
  transactionId: string,
  requestHash: string,
  first: idem.IdempotencyRecord,
): Promise<RefundAnswer> =>
  resumeKey(first, requestHash, {
    reread: () => idem.getIdempotencyRecord(organization.id, REFUND_OPERATION, first.key),
    finish: async (record, attemptId) => {
      const [refund, t] = await Promise.all([repo.getRefund(transactionId, record.resourceId), transactions.getTransaction(organization.id, transactionId)]);
      if (!refund || !t) throw new Error(`The claim of refund ${record.resourceId} has no refund`);
      return processAndSettle(processor, organization, t, refund, { record, attemptId });
    },
    replay,
    keyReused,
    inProgress,
  });

/** Step 2, then step 3: the processor's refund under the refund's own key, then its settlement. */
async function processAndSettle(
  processor: RefundProcessor,
  organization: Merchant,
  t: Transaction,
  refund: Refund,
  claim: Claim | null,
): Promise<RefundAnswer> {
  let result: RefundResult;
  try {
    result = await processor.refund({
      externalTransactionId: t.externalTransactionId!,
      amountMinor: refund.amountMinor,
      currency: refund.currency,
      idempotencyKey: processorRefundKey(refund.id),
    });
  } catch (e) {
    logger.warn('processor refund call failed', { refundId: refund.id, errorName: (e as Error).name });
    if (claim) await idem.releaseClaim(claim.record, claim.attemptId, new Date().toISOString());
    throw new DomainError(
      502,
      'refund.processor_unreachable',
      'The processor did not answer, so the outcome of this refund is not known yet. Retry with the same Idempotency-Key to finish it; it never refunds twice.',
      { refundId: refund.id },
    );
  }
  faultPoints.afterProcessor?.('refund', refund.id);
  return settleRefund(organization, refund, result, claim);
}

/**
 * The reconciler's finish of a keyed refund its processor has no record of, claimed with a change of the platform's
 * own (a prorated cancellation's), which no request retries: made now and settled (step 2, then step 3), as a retry
 * of its key would finish it — once, under the refund's own processor key.
 */
export async function finishRefund(processor: RefundProcessor, organization: Merchant, refund: Refund, claim: Claim): Promise<RefundAnswer> {
  const t = await transactions.getTransaction(organization.id, refund.transactionId);
  if (!t) throw new Error(`The refund ${refund.id} has no transaction`);
  return processAndSettle(processor, organization, t, refund, claim);
}

/**
 * Step 3, also the reconciler's: settles the pending `refund` with the processor's `result`, once — `refunded` (with
 * what `refundedParts` books) or `failed` (the reservation given back) — and completes its key's claim with the
 * answer. A refunded refund credits the invoice its payment paid (`invoicePaidBy`); one that cannot take the credit
 * (not found or not paid: a checkout payment from before checkouts issued one) is left as it is rather than holding
 * the money's settlement back. What the settlement's conditions depend on (the transaction's refunded total, the
 * balance) is read again while other refunds and payments of the merchant stand in the way. When it still has not landed after
 * `CONTENTION_BUDGET_MS` the refund is answered `pending` (with a key: 409 `idempotency.in_progress`), and the
 * reconciler settles it from the processor's record.
 */
export async function settleRefund(organization: Merchant, refund: Refund, result: RefundResult, claim: Claim | null): Promise<RefundAnswer> {
  let credit = result.outcome === 'succeeded';
  const landed = await untilLanded(async (): Promise<RefundAnswer | typeof CONTENDED> => {
    const at = new Date().toISOString();
    const settled: Refund =
      result.outcome === 'succeeded'
        ? { ...refund, status: 'refunded', externalRefundId: result.externalRefundId, processedAt: at, updatedAt: at }
        : { ...refund, status: 'failed', failure: { code: result.errorCode, message: result.errorMessage }, processedAt: at, updatedAt: at };
    const answer: idem.StoredAnswer = { status: 201, body: refundView(settled) };
    const parts: NamedParts<'refund' | 'key' | 'bookings' | 'invoice'> = [
      ['refund', [repo.settleRefund(settled)]],
      ['key', claim ? [idem.completeIdempotency(claim.record, claim.attemptId, answer, at)] : []],
      ...(settled.status === 'refunded'
        ? await refundedParts(organization, refund, at, credit)
        : ([
            ['bookings', [transactions.releaseRefundReservation(refund.transactionId, refund.amountMinor, at)]],
            ['invoice', []],
          ] as const)),
    ];
    const refused = await tryTransactWrite(parts);
    if (!refused) return { refund: refundView(settled), replayed: false };
    const failed = failedParts(refused.reasons, parts)!;
    if (failed.has('refund') || failed.has('key')) {
      // Settled already, by a retry that took the key over (or the reconciler): answer what it recorded.
      if (claim) {
        const record = await idem.getIdempotencyRecord(organization.id, REFUND_OPERATION, claim.record.key);
        if (record?.state === 'completed' && record.answer) return replay(record.answer);
        throw inProgress();
      }
      const now = await repo.getRefund(refund.transactionId, refund.id);
      if (now) return { refund: refundView(now), replayed: false };
      throw refused.error;
    }
    if (failed.has('invoice')) {
      logger.warn('refund settled without crediting an invoice, which is not a paid one', { refundId: refund.id });
      credit = false;
    }
    // Other writes to the transaction or the balance: read them again.
    return CONTENDED;
  });
  if (landed !== CONTENDED) return landed;
  logger.warn('refund settlement kept conflicting; the reconciler settles it', { refundId: refund.id });
  if (claim) throw inProgress();
  return { refund: refundView(refund), replayed: false };
}

/**
 * What a refund that reached `refunded` writes besides itself: the transaction's refunded total and status, the
 * refund journal (cash out, the tax in it no longer owed, the merchant debited the rest: available first, the
 * shortfall owed; the platform keeps its fee) with its balance change conditional on the available funds it
 * takes, and for a processor refund `payment.refunded` (the gross payment amount, like `payment.completed`); and,
 * with `credit`, the credit of the paid invoice of its payment by the refund (a part of its own).
 */
async function refundedParts(organization: Merchant, refund: Refund, at: string, credit: boolean): Promise<NamedParts<'bookings' | 'invoice'>> {
  const [t, balance] = await Promise.all([
    transactions.getTransaction(refund.organizationId, refund.transactionId),
    getConditionBalance(refund.organizationId, refund.currency),
  ]);
  if (!t) throw new Error(`Refund ${refund.id} has no transaction`);
  const to = statusAfterRefunds(t.status, t.amountMinor, (t.refundSettledMinor ?? 0) + refund.amountMinor);
  const j = refundJournal({
    merchantId: t.organizationId,
    refundId: refund.id,
    currency: t.currency,
    grossMinor: t.amountMinor,
    taxMinor: taxInPayment(t),
    // The refunds settled before this one, exactly: the settlement is conditional on the total it was read with.
    refundedBeforeMinor: t.refundSettledMinor ?? 0,
    refundMinor: refund.amountMinor,
    available: balance.available,
    at,
  });
  const items: TransactItem[] = [transactions.settleRefundOnTransaction(t, refund.amountMinor, to, REFUNDS_MOVE_STATUS_FROM, at), ...bookDebit(j)];
  if (refund.source === 'processor') {
    items.push(
      outboxEvent(
        'payment.refunded',
        organization,
        {
          transactionId: t.id,
          externalTransactionId: t.externalTransactionId,
          amount: toMajorUnits(t.amountMinor, t.currency),
          currency: t.currency.toLowerCase(),
          occurredAt: at,
          orderId: t.orderId,
          customerId: t.customerId,
          subscriptionId: t.subscriptionId,
        },
        at,
      ),
    );
  }
  const invoiceId = credit ? invoicePaidBy(t) : null;
  return [
    ['bookings', items],
    ['invoice', invoiceId ? [creditedChargeInvoice(invoiceId, refund.amountMinor, at)] : []],
  ];
}

/** The refunds of the organization's transaction, one offset page in creation order (`asc`) or newest first. */
export async function listRefunds(organization: Merchant, transactionId: string, paging: { limit: number; offset: number; sortDirection: 'asc' | 'desc' }) {
  const t = await transactions.getTransaction(organization.id, transactionId);
  if (!t) throw transactionNotFound();
  const all = await repo.listRefunds(t.id);
  if (paging.sortDirection === 'desc') all.reverse();
  return { totalCount: all.length, data: all.slice(paging.offset, paging.offset + paging.limit).map(refundView) };
}

/** Every refund of the transaction `transactionId` (of any merchant: the caller has read the transaction), oldest first, amounts in minor units. */
export const refundsOfTransaction = (transactionId: string): Promise<Refund[]> => repo.listRefunds(transactionId);

/**
 * A refund the processor made (the sandbox processor simulates one; the operator command and the sandbox-only
 * route ask for it): recorded like any refund, with source `processor`, so reaching `refunded` writes
 * `payment.refunded`. The transaction is found by id, whatever its organization.
 */
export async function processorRefund(transactionId: string, input: RefundRequest): Promise<RefundAnswer> {
  const t = await transactions.getTransactionById(transactionId);
  const organization = t ? await getMerchant(t.organizationId) : null;
  if (!t || !organization) throw transactionNotFound();
  return createRefund(organization, transactionId, input, 'processor');
}
