/**
 * How much of a sandbox charge its refunds gave back (`SANDBOXCHARGEREFUNDS#<chargeId>` / `SANDBOXCHARGEREFUNDS`):
 * the processor's own limit, raised with a condition in each succeeded refund's transaction.
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';

export interface SandboxChargeRefunds {
  /** The charge (`pay_…`). */
  chargeId: string;
  /** What the charge took, in minor units. */
  amountMinor: number;
  /** What its refunds gave back, in minor units. */
  refundedMinor: number;
}

const PARTITION = 'SANDBOXCHARGEREFUNDS#';

/** How much of a sandbox charge its refunds gave back (the processor's own limit). */
export const sandboxChargeRefunds = (chargeId: string) => ({ pk: `${PARTITION}${chargeId}`, sk: 'SANDBOXCHARGEREFUNDS' });

export const SandboxChargeRefundsEntity = entity<SandboxChargeRefunds, { chargeId: string }>({
  kind: 'sandboxChargeRefunds',
  // Written by the refunds' updates, which name the charge in the key only.
  schema: v.pipe(
    v.object({ pk: v.string(), amountMinor: v.number(), refundedMinor: v.optional(v.number(), 0) }),
    v.transform(({ pk, ...total }) => ({ chargeId: pk.slice(PARTITION.length), ...total })),
  ),
  key: (t) => sandboxChargeRefunds(t.chargeId),
});
