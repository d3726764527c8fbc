/**
 * A withdrawal (payout; the record: shared/money/payouts.rules.ts) `WITHDRAWAL#<id>` / `WITHDRAWAL`: its own
 * partition, read by id (the record's `merchantId` is checked), listed per merchant by creation (gsi1
 * `WITHDRAWALS#<merchantId>`) in the catalog listing's form (`listCatalogPage('WITHDRAWAL', …)`).
 */
import * as v from 'valibot';
import { type Withdrawal, withdrawalStatuses } from './payouts.rules.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { catalogPartition } from '../platform/db/keys.ts';

/** A withdrawal (payout): its own partition, read by id (the record's `merchantId` is checked). */
export const withdrawalKey = (withdrawalId: string) => ({ pk: `WITHDRAWAL#${withdrawalId}`, sk: 'WITHDRAWAL' });
/** A merchant's withdrawals listed by creation (gsi1 only), in the catalog listing's form (`listCatalogPage('WITHDRAWAL', …)`). */
const withdrawalListing = (merchantId: string, createdAt: string, withdrawalId: string) => ({
  gsi1pk: catalogPartition('WITHDRAWAL', merchantId),
  gsi1sk: `${createdAt}#${withdrawalId}`,
});

export const WithdrawalEntity = entity<Withdrawal, { id: string }>({
  kind: 'withdrawal',
  schema: v.object({
    id: v.string(),
    merchantId: v.string(),
    payoutMethodId: v.string(),
    payoutMethodLast4: v.string(),
    amountMinor: v.number(),
    currency: v.string(),
    status: v.picklist(withdrawalStatuses),
    externalWithdrawalId: orNull(v.string()),
    idempotencyKey: v.string(),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (w) => withdrawalKey(w.id),
  attributes: (w) => withdrawalListing(w.merchantId, w.createdAt, w.id),
});
