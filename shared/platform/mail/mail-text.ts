/** Pieces of text the mail templates share. */
import { amountText } from '../../domain/money.ts';
import type { SellerOfRecord } from '../seller-of-record.ts';

/** The platform as seller of record, as a mail names it. */
export type SellerOfRecordText = Pick<SellerOfRecord, 'name' | 'address' | 'city' | 'country' | 'taxNumber'>;

/** `seller` (the deployment's `SellerOfRecord`) as a mail names it: what it keeps of it. */
export const sellerOfRecordText = (seller: SellerOfRecordText): SellerOfRecordText => ({
  name: seller.name,
  address: seller.address,
  city: seller.city,
  country: seller.country,
  taxNumber: { type: seller.taxNumber.type, value: seller.taxNumber.value },
});

/** Who sold, on a receipt: the platform as merchant of record, on behalf of `merchantName`. */
export const soldByLine = (seller: SellerOfRecordText, merchantName: string): string =>
  `Sold by ${seller.name}, ${[seller.address, seller.city, seller.country].join(', ')} (${seller.taxNumber.type.toUpperCase()} ${seller.taxNumber.value}), as merchant of record on behalf of ${merchantName}: the charge on your statement is theirs.`;

/**
 * An amount with its tax, as a mail writes it: `10.82 USD (including 0.82 USD tax)`, with the rate it was charged at
 * when given (a percentage: `… tax at 8.25%)`), or without the tax when none.
 */
export const withTax = (amountMinor: number, taxMinor: number, currency: string, ratePercent?: number | null): string =>
  `${amountText(amountMinor, currency)}${taxMinor ? ` (including ${amountText(taxMinor, currency)} tax${ratePercent == null ? '' : ` at ${ratePercent}%`})` : ''}`;
