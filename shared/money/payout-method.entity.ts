/**
 * A merchant's payout method (the record: shared/money/payouts.rules.ts) `MERCHANT#<merchantId>` /
 * `PAYOUTMETHOD#<id>`, listed by a Query of the merchant's partition: a bank account, of which only the last four
 * characters of its number are kept.
 */
import * as v from 'valibot';
import { type PayoutMethod, payoutMethodTypes } from './payouts.rules.ts';
import { entity } from '../platform/db/entity.ts';

/** A merchant's payout method (a bank account: last four digits only), in the merchant's partition. */
export const payoutMethodKey = (merchantId: string, payoutMethodId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `PAYOUTMETHOD#${payoutMethodId}` });
export const payoutMethodsOf = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, skPrefix: 'PAYOUTMETHOD#' });

export const PayoutMethodEntity = entity<PayoutMethod, { merchantId: string; id: string }>({
  kind: 'payoutMethod',
  schema: v.object({
    id: v.string(),
    merchantId: v.string(),
    type: v.picklist(payoutMethodTypes),
    holderName: v.string(),
    country: v.string(),
    currency: v.string(),
    last4: v.string(),
    status: v.picklist(['pending', 'verified']),
    createdAt: v.string(),
  }),
  key: (m) => payoutMethodKey(m.merchantId, m.id),
});
