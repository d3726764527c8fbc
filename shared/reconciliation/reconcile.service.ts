/**
 * The reconciler: charges and refunds run claim → processor → settle, and a request can die between the processor's
 * answer and its settlement (a crash, a timeout, contention that outlasted its budget). Every run (scheduled every
 * few minutes, and the operator command `reconcile`) finds the operations claimed more than `RECONCILE_AFTER_SECONDS`
 * before `asOf` and still unsettled — through the unsettled index (shared/payments/unsettled.repository.ts, through its service), never a Scan — and
 * settles each from the processor's own record, found under the key derived from the operation's id (so nothing is
 * made twice):
 * - the processor has a record: the operation is settled with it, exactly as its request would have (the ledger,
 *   the events, the key's answer);
 * - it has none: the processor never made it, so it fails — a charge's claims are given back (order, session, promo
 *   redemption), a refund's reservation returns to the transaction — with `processor_no_record`. A prorated
 *   cancellation's refund is the exception: no request retries it, so it is made now under its own processor key
 *   (once). A merchant's refund is not: its caller may have asked again under another key.
 * A key's claim is taken over first (only once its lock has passed), so a retry of the request and the reconciler
 * never settle one operation twice; the settlement's own conditions make a run that races another harmless.
 *
 * Payouts need no reconciling: a payout request moves money in the one transaction that writes the withdrawal and
 * completes its key, and a claim that died before it let nothing move (the same request takes the key over).
 */
import * as idem from '../platform/db/idempotency.ts';
import { getMerchant } from '../people/index.ts';
import {
  type Transaction,
  unsettledOperations,
  processorRefundKey,
  type Refund,
  finishRefund,
  processorKeyOf,
  recordCharge,
  REFUND_OPERATION,
  settleRefund,
  type Claim,
  transactionsKind,
} from '../payments/index.ts';
import { DomainError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { config } from '../platform/config.ts';
import { logger } from '../platform/observability.ts';
import { type ChargeResult, type Processor, type RefundProcessor, type RefundResult, processorFor, refundProcessorFor } from '../processor/index.ts';
import { checkoutKind } from '../checkout/index.ts';
import { later, IDEMPOTENCY_LOCK_SECONDS, newAttemptId } from '../platform/db/idempotent-requests.ts';
import { CANCELLATION_REFUND_KEY, subscriptionChargesKind } from '../subscriptions/index.ts';

/**
 * How old an unsettled operation must be before the reconciler settles it: longer than any request that claims one
 * can still be running (the longest route timeout) and than a key's lock, so it never settles under a live request.
 */
export const RECONCILE_AFTER_SECONDS = 120;

/** What one run did, per operation: settled (from the processor's record, or a cancellation's refund made now), failed (no record, not made), or left for the next run. */
export interface ReconcileCounts {
  settled: number;
  failed: number;
  left: number;
}
export interface ReconcileResult {
  asOf: string;
  charges: ReconcileCounts;
  refunds: ReconcileCounts;
}

type Outcome = keyof ReconcileCounts;

const noChargeRecord: ChargeResult = {
  outcome: 'error',
  externalTransactionId: null,
  errorCode: 'processor_no_record',
  errorMessage: 'The processor has no record of this payment, so nothing was charged.',
};
const noRefundRecord: RefundResult = {
  outcome: 'failed',
  externalRefundId: null,
  errorCode: 'processor_no_record',
  errorMessage: 'The processor has no record of this refund, so nothing was given back.',
};

/** The answers of a charge that was recorded declined or failed (thrown like the request's own answer). */
const recordedRefusals = ['payment.declined', 'payment.processor_error'];

/**
 * Settles every operation claimed before `asOf` − `RECONCILE_AFTER_SECONDS` and still unsettled (see the top);
 * `only.organizationId`: that organization's alone (the operator command can reconcile one merchant).
 */
export async function reconcile(asOf = new Date(), only: { organizationId?: string } = {}): Promise<ReconcileResult> {
  const result: ReconcileResult = { asOf: asOf.toISOString(), charges: zero(), refunds: zero() };
  const due = await unsettledOperations(new Date(asOf.getTime() - RECONCILE_AFTER_SECONDS * 1000).toISOString(), only.organizationId);
  if (!due.length) return result;
  const processor = processorFor(config.stage);
  const refunds = refundProcessorFor(config.stage);
  for (const op of due) {
    if (op.operation === 'charge') result.charges[await reconcileCharge(processor, op.transaction, asOf)]++;
    else result.refunds[await reconcileRefund(refunds, op.refund, asOf)]++;
  }
  return result;
}

const zero = (): ReconcileCounts => ({ settled: 0, failed: 0, left: 0 });

/** The key's claim taken over for the reconciler (once its lock has passed), or null when a request still owns it. */
async function takeOver(record: idem.IdempotencyRecord, asOf: Date): Promise<Claim | null> {
  if (record.state !== 'processing' || record.lockedUntil > asOf.toISOString()) return null;
  const attemptId = newAttemptId();
  return (await idem.takeOverClaim(record, attemptId, later(asOf, IDEMPOTENCY_LOCK_SECONDS), asOf.toISOString())) ? { record, attemptId } : null;
}

/** The organization of an operation, or null (logged: an operation whose organization is gone cannot be settled). */
async function organizationOf(organizationId: string, what: Record<string, string>): Promise<Merchant | null> {
  const organization = await getMerchant(organizationId);
  if (!organization) logger.error('unsettled operation of an unknown organization', what);
  return organization;
}

async function reconcileCharge(processor: Processor, t: Transaction, asOf: Date): Promise<Outcome> {
  // The kind of charge its claim was made under: a checkout confirm carries its checkout breakdown, a
  // subscription's charge its subscription.
  const kind = t.checkout ? checkoutKind : t.subscriptionId ? subscriptionChargesKind : transactionsKind;
  const [organization, record] = await Promise.all([
    organizationOf(t.organizationId, { transactionId: t.id }),
    idem.getIdempotencyRecord(t.organizationId, kind.operation, t.idempotencyKey),
  ]);
  if (!organization) return 'left';
  if (record?.resourceId !== t.id) {
    logger.error('unsettled charge without its claim', { transactionId: t.id });
    return 'left';
  }
  const claim = await takeOver(record, asOf);
  if (!claim) return 'left';
  const found = await processor.findCharge(processorKeyOf(kind, t));
  try {
    await recordCharge(kind, organization, claim.record, claim.attemptId, t, found ?? noChargeRecord);
  } catch (e) {
    // A declined or failed payment's answer is an error (402, 502): it was recorded all the same.
    if (!(e instanceof DomainError && recordedRefusals.includes(e.code))) {
      logger.warn('charge not reconciled; the next run tries again', { transactionId: t.id, errorName: (e as Error).name });
      return 'left';
    }
  }
  logger.info('charge reconciled', { transactionId: t.id, processorRecord: found !== null });
  return found ? 'settled' : 'failed';
}

async function reconcileRefund(processor: RefundProcessor, refund: Refund, asOf: Date): Promise<Outcome> {
  const [organization, record] = await Promise.all([
    organizationOf(refund.organizationId, { refundId: refund.id }),
    refund.idempotencyKey ? idem.getIdempotencyRecord(refund.organizationId, REFUND_OPERATION, refund.idempotencyKey) : null,
  ]);
  if (!organization) return 'left';
  let claim: Claim | null = null;
  if (refund.idempotencyKey) {
    if (record?.resourceId !== refund.id) {
      logger.error('unsettled refund without its claim', { refundId: refund.id });
      return 'left';
    }
    claim = await takeOver(record, asOf);
    if (!claim) return 'left';
  }
  const found = await processor.findRefund(processorRefundKey(refund.id));
  let status: string;
  try {
    // Not made: a prorated cancellation's refund, which no request retries, is made now under its key; any other fails
    // (its caller may have asked again under another key: making this one too could give back twice).
    const answer =
      !found && claim && refund.idempotencyKey?.startsWith(CANCELLATION_REFUND_KEY)
        ? await finishRefund(processor, organization, refund, claim)
        : await settleRefund(organization, refund, found ?? noRefundRecord, claim);
    status = answer.refund.status;
    if (status === 'pending') return 'left';
  } catch (e) {
    logger.warn('refund not reconciled; the next run tries again', { refundId: refund.id, errorName: (e as Error).name });
    return 'left';
  }
  logger.info('refund reconciled', { refundId: refund.id, processorRecord: found !== null });
  return found || status !== 'failed' ? 'settled' : 'failed';
}
