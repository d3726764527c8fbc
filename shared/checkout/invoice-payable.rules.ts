/**
 * When a buyer may pay an invoice at checkout (pure rules, no I/O): its status is `open` or `past_due`, its
 * currency is one of the ten supported checkout currencies and its amount due is more than zero and at most the
 * order amount limit (100000 major units of its currency); and it is not a subscription's invoice, which that
 * subscription's own charges pay.
 */
import { toMajorUnits } from '../domain/money.ts';
import { ORDER_LIMITS } from './orders.rules.ts';
import { payableInvoiceStatuses, type Invoice } from '../invoicing/invoices.schemas.ts';

/** The ten currencies checkout by invoice supports (ISO 4217). */
export const checkoutCurrencies = ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'JPY', 'CHF', 'SEK', 'NOK', 'DKK'] as const;

/** True when a buyer may pay `invoice` at checkout. */
export function isPayable(invoice: Invoice): boolean {
  return (
    !invoice.billsSubscription &&
    payableInvoiceStatuses.includes(invoice.status) &&
    (checkoutCurrencies as readonly string[]).includes(invoice.currency) &&
    Number.isSafeInteger(invoice.amountDueMinor) &&
    invoice.amountDueMinor > 0 &&
    toMajorUnits(invoice.amountDueMinor, invoice.currency) <= ORDER_LIMITS.maxTotal
  );
}
