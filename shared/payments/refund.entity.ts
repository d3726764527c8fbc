/**
 * A refund (its record and rules in shared/payments/refunds.rules.ts): `TRANSACTION#<transactionId>` /
 * `REFUND#<refundId>`, in its transaction's partition, so a transaction's refunds are one Query (ids are UUID v7:
 * the sort key orders them by creation). While it is `pending` it is on the unsettled-operations index (gsi3).
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { type Refund, refundSources, refundStatuses } from './refunds.rules.ts';

/** A refund of a transaction, in the transaction's partition (listed by a Query of it; ids are UUID v7). */
export const refund = (transactionId: string, refundId: string) => ({ pk: `TRANSACTION#${transactionId}`, sk: `REFUND#${refundId}` });
/** Every refund of a transaction: one Query of its partition. */
export const refundsOf = (transactionId: string) => ({ pk: `TRANSACTION#${transactionId}`, skPrefix: 'REFUND#' });

export const RefundEntity = entity<Refund, { transactionId: string; id: string }>({
  kind: 'refund',
  schema: v.object({
    id: v.string(),
    transactionId: v.string(),
    organizationId: v.string(),
    amountMinor: v.number(),
    currency: v.string(),
    reason: orNull(v.string()),
    source: v.picklist(refundSources),
    status: v.picklist(refundStatuses),
    externalRefundId: orNull(v.string()),
    failure: orNull(v.object({ code: v.string(), message: v.string() })),
    idempotencyKey: orNull(v.string()),
    processedAt: orNull(v.string()),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (r) => refund(r.transactionId, r.id),
});
