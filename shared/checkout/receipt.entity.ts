/**
 * A checkout payment's receipt, in its transaction's partition (`TRANSACTION#<txId>` / `RECEIPT`): what the buyer
 * was shown of the seller (written with the payment's claim) and, once the payment completed, its number. The
 * organization's receipt counter and its numbers' own items serve it.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';

/** What a receipt shows of the seller, fixed when the buyer paid. */
export interface ReceiptSeller {
  /** The name the checkout showed the buyer (the merchant's display name). */
  merchantName: string;
  /** The platform, which sells as merchant of record (the deployment's `SellerOfRecord` then). */
  sellerOfRecord: {
    name: string;
    address: string;
    city: string;
    zip: string | null;
    state: string | null;
    country: string;
    phoneNumber: string | null;
    taxNumber: { type: string; value: string };
  };
}

/** A receipt as stored; the seller is absent on receipts of payments claimed before receipts kept it. */
export interface ReceiptRecord {
  transactionId: string;
  organizationId: string;
  seller: ReceiptSeller | null;
  /** The organization's receipt number (1, 2, …), set when the payment completed; null until then. */
  number: number | null;
}

/**
 * A checkout payment's receipt, in its transaction's partition: what the buyer was shown of the seller (written with
 * the payment's claim) and, once the payment completed, its number.
 */
export const receipt = (transactionId: string) => ({ pk: `TRANSACTION#${transactionId}`, sk: 'RECEIPT' });
/** The last receipt number an organization took (one atomic increment per completed checkout payment). */
export const receiptCounter = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: 'RECEIPTNUMBER' });
/** Receipt number `n` of an organization, naming its transaction: written once (`attribute_not_exists`). */
export const receiptNumber = (organizationId: string, n: number) => ({ pk: `MERCHANT#${organizationId}`, sk: `RECEIPTNUMBER#${n}` });

export const ReceiptEntity = entity<ReceiptRecord, { transactionId: string }>({
  kind: 'receipt',
  schema: v.object({
    transactionId: v.string(),
    organizationId: v.string(),
    seller: orNull(
      v.object({
        merchantName: v.string(),
        sellerOfRecord: v.object({
          name: v.string(),
          address: v.string(),
          city: v.string(),
          zip: orNull(v.string()),
          state: orNull(v.string()),
          country: v.string(),
          phoneNumber: orNull(v.string()),
          taxNumber: v.object({ type: v.string(), value: v.string() }),
        }),
      }),
    ),
    number: orNull(v.number()),
  }),
  key: (r) => receipt(r.transactionId),
});
