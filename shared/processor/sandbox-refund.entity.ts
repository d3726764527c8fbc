/**
 * A refund the sandbox processor made or refused (`SANDBOXREFUND#<base64url sha256(idempotency key)>` /
 * `SANDBOXREFUND`): one per idempotency key, failed ones too, so a retry answers the same.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import type { RefundResult } from './processor.ts';

/** A refund as the sandbox processor recorded it (one per idempotency key, failed ones too). */
export interface SandboxRefund {
  id: string;
  /** The idempotency key's SHA-256, base64url: the refund's key. */
  keyHash: string;
  chargeId: string;
  amountMinor: number;
  currency: string;
  result: RefundResult;
  createdAt: string;
}

const PARTITION = 'SANDBOXREFUND#';

/** The sandbox processor's refund made under an idempotency key (the key's SHA-256, base64url). */
export const sandboxRefund = (idempotencyKeyHash: string) => ({ pk: `${PARTITION}${idempotencyKeyHash}`, sk: 'SANDBOXREFUND' });

export const SandboxRefundEntity = entity<SandboxRefund, { keyHash: string }>({
  kind: 'sandboxRefund',
  // The key hash is read from the key: refunds were first written without it beside the key.
  schema: v.pipe(
    v.object({
      pk: v.string(),
      id: v.string(),
      chargeId: v.string(),
      amountMinor: v.number(),
      currency: v.string(),
      result: v.variant('outcome', [
        v.object({ outcome: v.literal('succeeded'), externalRefundId: v.string() }),
        v.object({ outcome: v.literal('failed'), externalRefundId: orNull(v.string()), errorCode: v.string(), errorMessage: v.string() }),
      ]),
      createdAt: v.string(),
    }),
    v.transform(({ pk, ...refund }) => ({ ...refund, keyHash: pk.slice(PARTITION.length) })),
  ),
  key: (r) => sandboxRefund(r.keyHash),
});
