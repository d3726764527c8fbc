/**
 * A cancellation of a subscription (`SUBCANCEL#<id>` / `SUBCANCEL`), a catalog record of the organization listed
 * through gsi1 by creation and gsi2 by last update (`SUBCANCELS#<orgId>`). It is written whole by every change, in
 * the same transaction as the change of its subscription.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { changeRecordFields } from './change-record.entity.ts';
import { catalogItem, catalogListing } from '../platform/db/keys.ts';
import { type Cancellation, cancellationReasons, cancellationStatuses, cancelledByValues, churnTimePolicies } from './changes.rules.ts';

export const CancellationEntity = entity<Cancellation, { id: string }>({
  kind: 'subscriptionCancellation',
  schema: v.pipe(
    v.object({
      ...changeRecordFields,
      proratedInvoiceId: orNull(v.string()),
      appliedInvoiceId: orNull(v.string()),
      cancelledBy: v.picklist(cancelledByValues),
      reason: orNull(v.picklist(cancellationReasons)),
      description: orNull(v.string()),
      prorated: v.boolean(),
      status: v.picklist(cancellationStatuses),
      cancelledAt: orNull(v.string()),
      churnedAt: orNull(v.string()),
      churnTimePolicy: orNull(v.picklist(churnTimePolicies)),
      cancelAt: orNull(v.string()),
      lineItems: v.array(
        v.object({
          type: v.picklist(['debit', 'credit']),
          description: v.string(),
          unitPriceMinor: v.number(),
          currency: v.string(),
          quantity: v.number(),
          periodStartsAt: v.string(),
          periodEndsAt: v.string(),
          createdAt: v.string(),
        }),
      ),
      refundIds: v.optional(v.array(v.string())),
      /** A record written before a cancellation could refund several payments: its one refund. */
      refundId: v.optional(orNull(v.string())),
    }),
    v.transform(({ refundId, refundIds, ...c }) => ({ ...c, refundIds: refundIds ?? (refundId ? [refundId] : []) })),
  ),
  key: (c) => catalogItem('SUBCANCEL', c.id),
  attributes: (c) => catalogListing('SUBCANCEL', c.organizationId, c.id, c.createdAt, c.updatedAt),
});
