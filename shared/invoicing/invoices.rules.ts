/**
 * Customer invoices (pure rules, no I/O): the record, its pricing, its statuses and their transitions, its number.
 *
 * Amounts are integer minor units of the invoice's currency inside (major units on the wire). Pricing:
 * - an item's `amount` = quantity × unitPrice;
 * - its `taxAmount` = amount × taxRate / 100 rounded once to the minor unit half-even (the platform's one rounding
 *   rule), on exact integers (`taxRate` is a percentage with at most 4 decimals, read as an exact decimal);
 * - `totalTax` = the sum of the items' taxAmount; `totalAmount` = the sum of the amounts + totalTax + shippingFee
 *   (the shipping fee is not taxed).
 *
 * Statuses: `draft` (editable, no number) → issue → `open` (numbered, `issueDate`, `dueDate`); an open invoice
 * whose `dueDate` has passed reads as `past_due` (computed on every read, never written, so it is exact to the
 * second and needs no job); `open`/`past_due` → `paid` when checkout by invoice pays its order (in the payment's
 * settlement transaction); `open`/`past_due` → `uncollectible` (the organization gives up collecting it: it can no
 * longer be paid); `draft`/`open`/`past_due`/`uncollectible` → `voided`; a `paid` invoice cannot be voided.
 */
import { createHash } from 'node:crypto';
import { MAX_CHARGE_AMOUNT } from '../domain/money.ts';
import { parseDecimalRate } from '../domain/tax-rates.ts';
import { taxOf } from '../domain/tax.ts';

/** The statuses an invoice is stored with; `past_due` is derived from `open` and the due date. */
export const storedInvoiceStatuses = ['draft', 'open', 'paid', 'voided', 'uncollectible'] as const;
export type StoredInvoiceStatus = (typeof storedInvoiceStatuses)[number];
/** Every status an invoice shows. */
export const customerInvoiceStatuses = ['draft', 'open', 'past_due', 'paid', 'voided', 'uncollectible'] as const;
export type CustomerInvoiceStatus = (typeof customerInvoiceStatuses)[number];

/** The statuses an unpaid invoice is closed with: no payment can follow either. */
export type ClosedInvoiceStatus = 'voided' | 'uncollectible';
/** The stored statuses an invoice may be closed from, by the status it closes with (`open` covers `past_due`). */
export const closableFrom: Readonly<Record<ClosedInvoiceStatus, readonly StoredInvoiceStatus[]>> = {
  voided: ['draft', 'open', 'uncollectible'],
  uncollectible: ['open'],
};

export const INVOICE_LIMITS = {
  items: 100,
  description: 500,
  quantity: 1_000_000,
  /** Largest total (major units) an invoice may reach: the most one charge takes. */
  maxTotal: MAX_CHARGE_AMOUNT,
  partyName: 200,
  partyField: 200,
  taxNumberType: 50,
  taxNumberValue: 100,
  /** Decimals a tax rate (percent) may have. */
  taxRateDecimals: 4,
  search: 100,
} as const;

export interface InvoiceParty {
  name: string;
  address: string | null;
  city: string | null;
  country: string | null;
  zip: string | null;
  phoneNumber: string | null;
  state: string | null;
}

export interface CustomerInvoiceItem {
  description: string;
  quantity: number;
  unitPriceMinor: number;
  amountMinor: number;
  /** Percent, e.g. 20 or 8.875. */
  taxRate: number;
  taxAmountMinor: number;
}

export interface CustomerInvoice {
  /** `inv_` and 32 hex digits. */
  id: string;
  organizationId: string;
  /** `INV-000001`…, given at issue; null while draft. */
  number: string | null;
  status: StoredInvoiceStatus;
  currency: string;
  items: CustomerInvoiceItem[];
  shippingFeeMinor: number;
  totalTaxMinor: number;
  totalAmountMinor: number;
  buyer: InvoiceParty;
  /**
   * The seller of record: the platform (merchant of record), not the organization, as the stage's configuration
   * named it when the draft was made (`sellerOfRecord()`): its legal name and address. The organization is named on the
   * PDF as the merchant the sale is made for. A draft keeps the seller it was made with.
   */
  seller: InvoiceParty;
  /** The seller of record's tax number (`vat`, `ein`, …), kept with `seller`; null on invoices made before it was. */
  sellerTaxNumber: { type: string; value: string } | null;
  customerId: string | null;
  organizationTaxNumber: { type: string; value: string } | null;
  issueDate: string | null;
  dueDate: string | null;
  paidOnDate: string | null;
  voidedAt: string | null;
  /** Why it was voided, when the platform voided it (`subscription_ended`, `subscription_paused`); null: voided by the merchant, or not. */
  voidReason: string | null;
  /** What refunds gave back of a paid invoice (minor units, with their tax; 0: none): it is credited by that much. */
  creditedMinor: number;
  /** The order checkout by invoice made for it (shared/checkout/checkout-invoices.service.ts). */
  payableOrderId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The status an invoice shows at `now`: an open invoice past its due date is `past_due`. */
export function statusAt(invoice: Pick<CustomerInvoice, 'status' | 'dueDate'>, now: string): CustomerInvoiceStatus {
  return invoice.status === 'open' && invoice.dueDate !== null && invoice.dueDate < now ? 'past_due' : invoice.status;
}

/**
 * An organization's invoices are numbered in two series: `INV` for those it issues (`INV-000001`, gap-free) and `SUB`
 * for those of its subscriptions' charges, numbered by the platform from blocks (`SUB-000001`).
 */
export type InvoiceSeries = 'INV' | 'SUB';

/** The series of the invoices of subscriptions' charges, numbered by the platform. */
export const SUBSCRIPTION_SERIES = 'SUB' satisfies InvoiceSeries;

/** Whether an invoice numbered `number` bills a subscription (its series is `SUB`): its subscription pays and closes it. */
export const billsSubscription = (number: string | null | undefined): boolean => number?.startsWith(`${SUBSCRIPTION_SERIES}-`) ?? false;

/** The `n`th invoice number of an organization's `series`: `INV-000001` (at least six digits). */
export const invoiceNumber = (n: number, series: InvoiceSeries = 'INV'): string => `${series}-${String(n).padStart(6, '0')}`;

/** A tax answer's rate (an exact decimal, `"0.19"`) as an invoice line's percentage (19), to its 4 decimals. */
export const taxPercentOf = (rate: string): number => Number((Number(rate) * 100).toFixed(INVOICE_LIMITS.taxRateDecimals));

/** `percent` (at most 4 decimals) of `amountMinor`, rounded half-even to the minor unit, exactly. */
export function taxAmountOf(amountMinor: number, percent: number): number {
  const p = parseDecimalRate(percent.toFixed(INVOICE_LIMITS.taxRateDecimals));
  return Number(taxOf(BigInt(amountMinor), { units: p.units, scale: p.scale + 2 }));
}

export interface DraftItemInput {
  description: string;
  quantity: number;
  unitPriceMinor: number;
  taxRate: number;
}

/** Priced items and totals of a draft. */
export function priceInvoice(items: DraftItemInput[], shippingFeeMinor: number) {
  const priced: CustomerInvoiceItem[] = items.map((i) => {
    const amountMinor = i.quantity * i.unitPriceMinor;
    return { ...i, amountMinor, taxAmountMinor: taxAmountOf(amountMinor, i.taxRate) };
  });
  const totalTaxMinor = priced.reduce((n, i) => n + i.taxAmountMinor, 0);
  const totalAmountMinor = priced.reduce((n, i) => n + i.amountMinor, 0) + totalTaxMinor + shippingFeeMinor;
  return { items: priced, totalTaxMinor, totalAmountMinor };
}

/** Lowercased text the merchant API's `search` matches: the number, the buyer's name and the customer id. */
export const searchTextOf = (i: Pick<CustomerInvoice, 'number' | 'buyer' | 'customerId'>): string =>
  [i.number, i.buyer.name, i.customerId].filter(Boolean).join(' ').toLowerCase();

/**
 * The invoice id of a subscription's charge: fixed by the charge's key (a retry's suffix left out: retries pay one
 * invoice), so the charge, its settlement and its refunds all know it without storing it.
 */
export const chargeInvoiceId = (key: string): string =>
  `inv_${createHash('sha256')
    .update(key.replace(/:retry-\d+$/, ''))
    .digest('hex')
    .slice(0, 32)}`;

/** The invoice id of the checkout payment `transactionId` of a subscription (its first charge). */
export const checkoutInvoiceId = (transactionId: string): string => chargeInvoiceId(`checkout:${transactionId}`);

/** What a new invoice holds of its later life, at `now`: nothing voided, credited or paid through an order yet. */
export const untouchedSince = (now: string) => ({ voidedAt: null, voidReason: null, creditedMinor: 0, payableOrderId: null, createdAt: now, updatedAt: now });
