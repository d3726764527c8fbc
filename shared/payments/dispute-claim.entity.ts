/**
 * The claim a dispute holds on its transaction (`TRANSACTION#<transactionId>` / `DISPUTE`, in the transaction's
 * partition): one dispute per transaction. Written once (`attribute_not_exists`) with its dispute; its decision
 * (`decidedAt`, and what the chargeback took of the payment, `takenMinor`) is written with the dispute's, after which
 * the rest of the payment may be refunded again.
 */
import * as v from 'valibot';
import { entity } from '../platform/db/entity.ts';

export interface DisputeClaim {
  transactionId: string;
  organizationId: string;
  disputeId: string;
  createdAt: string;
  /** When the dispute was decided (won, lost, forfeited); absent while it is open. */
  decidedAt?: string | undefined;
  /** What the decided dispute took of the payment (a lost one: its amount; a won one: nothing). */
  takenMinor?: number | undefined;
}

const PARTITION = 'TRANSACTION#';

/** The claim a transaction's dispute holds in the transaction's partition: one dispute per transaction. */
export const transactionDispute = (transactionId: string) => ({ pk: `${PARTITION}${transactionId}`, sk: 'DISPUTE' });

export const DisputeClaimEntity = entity<DisputeClaim, { transactionId: string }>({
  kind: 'disputeClaim',
  // The transaction is read from the key: claims were first written without it beside the key.
  schema: v.pipe(
    v.object({
      pk: v.string(),
      organizationId: v.string(),
      disputeId: v.string(),
      createdAt: v.string(),
      decidedAt: v.optional(v.string()),
      takenMinor: v.optional(v.number()),
    }),
    v.transform(({ pk, ...claim }) => ({ transactionId: pk.slice(PARTITION.length), ...claim })),
  ),
  key: (c) => transactionDispute(c.transactionId),
});
