/**
 * A reactivation of a subscription (`SUBREACT#<id>` / `SUBREACT`), a catalog record of the organization listed
 * through gsi1 by creation and gsi2 by last update (`SUBREACTS#<orgId>`). It is written whole by every change, in the
 * same transaction as the change of its subscription.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { changeRecordFields } from './change-record.entity.ts';
import { catalogItem, catalogListing } from '../platform/db/keys.ts';
import type { Reactivation } from './changes.rules.ts';

export const ReactivationEntity = entity<Reactivation, { id: string }>({
  kind: 'subscriptionReactivation',
  schema: v.object({
    ...changeRecordFields,
    cancellationId: orNull(v.string()),
    description: orNull(v.string()),
    effectiveAt: v.string(),
    renewalAt: orNull(v.string()),
    paymentInstrumentId: orNull(v.string()),
    transactionId: orNull(v.string()),
  }),
  key: (r) => catalogItem('SUBREACT', r.id),
  attributes: (r) => catalogListing('SUBREACT', r.organizationId, r.id, r.createdAt, r.updatedAt),
});
