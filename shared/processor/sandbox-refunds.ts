/**
 * The sandbox processor's refunds (see ./sandbox-processor.ts): one per idempotency key, never more in all than the
 * charge. A port of their own (`RefundProcessor`), so the functions that charge carry none of this.
 */
import { cancellationReasons, failedParts, type NamedParts, partReasons, transactWrite } from '../platform/db/transactions.ts';
import type { RefundInput, RefundProcessor, RefundResult } from './processor.ts';
import { INVALID_AMOUNT, INVALID_KEY, keyHash, SANDBOX_CHARGE_ID, upstreamId } from './sandbox-processor.ts';
import * as repo from './sandbox-processor.repository.ts';
import type { SandboxCharge } from './sandbox-charge.entity.ts';
import type { SandboxRefund } from './sandbox-refund.entity.ts';

/** The charge `chargeId` (through its id index), or null. */
async function chargeById(chargeId: string): Promise<SandboxCharge | null> {
  if (!SANDBOX_CHARGE_ID.test(chargeId)) return null;
  return repo.getSandboxChargeById(chargeId);
}

const refundFailure = (errorCode: string, errorMessage: string): RefundResult => ({ outcome: 'failed', externalRefundId: null, errorCode, errorMessage });

/**
 * One refund per idempotency key, like charges. A refund of a succeeded charge in its currency is made when the
 * charge's refunds stay within its amount: the refund record (`attribute_not_exists`) and the charge's refunded
 * total (conditional on leaving room for this one) are written in one transaction, so concurrent refunds never
 * give back more than was charged. A refused refund is recorded under its key too, so a retry answers the same.
 */
async function refund(input: RefundInput): Promise<RefundResult> {
  if (!Number.isSafeInteger(input.amountMinor) || input.amountMinor <= 0) return refundFailure('invalid_amount', INVALID_AMOUNT);
  if (!input.idempotencyKey || input.idempotencyKey.length > 255) return refundFailure('invalid_idempotency_key', INVALID_KEY);
  const hash = keyHash(input.idempotencyKey);
  const earlier = await repo.getSandboxRefund(hash);
  if (earlier) return sameRefund(earlier, input);

  const charge = await chargeById(input.externalTransactionId);
  const now = new Date().toISOString();
  const id = upstreamId('re');
  let result: RefundResult = { outcome: 'succeeded', externalRefundId: id };
  if (charge?.result.outcome !== 'succeeded') result = refundFailure('unknown_charge', 'The processor has no succeeded charge with this id.');
  else if (charge.currency !== input.currency) result = refundFailure('currency_mismatch', 'A refund is made in the currency of its charge.');
  else if (input.amountMinor > charge.amountMinor) result = refundFailure('amount_too_large', 'The refund is more than the charge.');
  const record: SandboxRefund = {
    id,
    keyHash: hash,
    chargeId: input.externalTransactionId,
    amountMinor: input.amountMinor,
    currency: input.currency,
    result,
    createdAt: now,
  };
  // A succeeded refund is written with what it takes from the charge.
  const parts: NamedParts<'refund' | 'charge'> | null =
    result.outcome === 'succeeded'
      ? [
          ['refund', [repo.newSandboxRefund(record)]],
          ['charge', [repo.takeFromCharge(input.externalTransactionId, charge!.amountMinor, input.amountMinor)]],
        ]
      : null;
  try {
    if (parts) await transactWrite(parts, 10);
    else if (!(await repo.putSandboxRefund(record))) return await answerOfTakenKey(hash, input, new Error('A sandbox refund key was taken, then found empty'));
    return result;
  } catch (e) {
    const reasons = cancellationReasons(e);
    if (!reasons || !parts) throw e;
    if (
      partReasons(reasons, parts)
        .get('refund')
        ?.every((r) => r === 'None') &&
      failedParts(reasons, parts)?.has('charge')
    ) {
      // What is left of the charge is less than this refund: record the refusal under the key.
      const refused: SandboxRefund = { ...record, result: refundFailure('amount_too_large', 'The refund is more than what is left of the charge.') };
      if (await repo.putSandboxRefund(refused)) return refused.result;
    }
    return answerOfTakenKey(hash, input, e);
  }
}

/** The answer under a key another call took first: its refund's result, or `idempotency_key_reused`; `cause` is thrown when the key holds none. */
async function answerOfTakenKey(hash: string, input: RefundInput, cause: unknown): Promise<RefundResult> {
  const first = await repo.getSandboxRefund(hash);
  if (!first) throw cause;
  return sameRefund(first, input);
}

/** How much of the charge `chargeId` the sandbox processor's refunds gave back, in minor units (for tests and support). */
export async function sandboxRefundedMinor(chargeId: string): Promise<number> {
  return repo.getSandboxRefundedMinor(chargeId);
}

/** The answer of a key seen before: its result, or `idempotency_key_reused` for another charge, amount or currency. */
function sameRefund(first: SandboxRefund, input: RefundInput): RefundResult {
  if (first.chargeId !== input.externalTransactionId || first.amountMinor !== input.amountMinor || first.currency !== input.currency) {
    return refundFailure('idempotency_key_reused', 'This idempotency key was used for a different refund.');
  }
  return first.result;
}

/** The sandbox processor's refunds. */
export const sandboxRefundProcessor: RefundProcessor = {
  refund,
  findRefund: async (idempotencyKey) => (await repo.getSandboxRefund(keyHash(idempotencyKey)))?.result ?? null,
};
