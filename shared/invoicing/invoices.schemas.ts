/**
 * Customer invoices: the organization face's draft and issue bodies and the Customer invoice record (the
 * spec's row), the merchant face's list query, list page, record and PDF body. Every limit is `INVOICE_LIMITS`
 * (shared/invoicing/invoices.rules.ts) and is listed in docs/reference-invoices.md ("Customer invoices").
 */
import * as v from 'valibot';
import { customerInvoiceStatuses, INVOICE_LIMITS as L } from './invoices.rules.ts';
import { INVOICE_ID_PATTERN } from './port.ts';
import { isoTime, nullableIsoTime, uuid, pageQuery, pagination } from '../platform/http/schemas/common.ts';
import { customerId } from '../customers/customers.schemas.ts';
import { named } from '../platform/http/schemas/named.ts';
import { currency, majorAmountUpTo, objectEnvelope, instantInput } from '../platform/http/schemas/organization.ts';
import { country } from '../platform/http/schemas/country.ts';

/** Trimmed text of 1 to `max` characters. */
const text = (max: number) =>
  v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(max, `must be at most ${max} characters`));
const optionalText = (max: number) => v.optional(v.nullable(text(max)), null);

const partyInput = v.strictObject({
  name: text(L.partyName),
  address: optionalText(L.partyField),
  city: optionalText(L.partyField),
  country: v.optional(v.nullable(country), null),
  zip: optionalText(L.partyField),
  phoneNumber: optionalText(L.partyField),
  state: optionalText(L.partyField),
});

/** A percentage 0..100 with at most 4 decimals. */
const taxRate = v.pipe(
  v.number('must be a number'),
  v.finite(),
  v.minValue(0, 'must not be negative'),
  v.maxValue(100, 'must be at most 100'),
  v.check((n) => Number(n.toFixed(L.taxRateDecimals)) === n, `must have at most ${L.taxRateDecimals} decimals`),
);

const itemInput = v.strictObject({
  description: text(L.description),
  quantity: v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(1, 'must be at least 1'),
    v.maxValue(L.quantity, `must be at most ${L.quantity}`),
  ),
  /** Major units of the invoice's currency. */
  unitPrice: majorAmountUpTo(L.maxTotal),
  taxRate: v.optional(taxRate, 0),
});

/**
 * A draft: currency, buyer, 1 to 100 items (unitPrice in major units, taxRate a percentage, default 0), an
 * optional shipping fee (major units, untaxed), the customer and the organization's tax number. The seller is
 * always the platform (seller of record).
 */
export const createCustomerInvoiceRequest = named(
  'CreateCustomerInvoiceRequest',
  v.strictObject({
    currency,
    customerId: v.optional(v.nullable(customerId), null),
    buyer: partyInput,
    items: v.pipe(v.array(itemInput), v.minLength(1, 'must have at least one item'), v.maxLength(L.items, `must have at most ${L.items} items`)),
    shippingFee: v.optional(majorAmountUpTo(L.maxTotal), 0),
    organizationTaxNumber: v.optional(v.nullable(v.strictObject({ type: text(L.taxNumberType), value: text(L.taxNumberValue) })), null),
  }),
);

/** An ISO 8601 date-time, normalised to `toISOString()` form. */
const instant = instantInput;

/** Issue: `issuedAt` and `dueAt`, the due date not before the issue date. */
export const issueCustomerInvoiceRequest = named(
  'IssueCustomerInvoiceRequest',
  v.pipe(
    v.strictObject({ issuedAt: instant, dueAt: instant }),
    v.forward(
      v.check((o) => o.dueAt >= o.issuedAt, 'must not be before issuedAt'),
      ['dueAt'],
    ),
  ),
);

const nullableString = v.nullable(v.string());

const party = named(
  'InvoiceParty',
  v.strictObject({
    name: v.string(),
    address: nullableString,
    city: nullableString,
    country: nullableString,
    zip: nullableString,
    phoneNumber: nullableString,
    state: nullableString,
  }),
);

const amount = v.pipe(v.number(), v.minValue(0));
/** A line's amount: negative on a credit line (a subscription's unused time, credit applied), which the invoice's total nets. */
const lineAmount = v.pipe(v.number(), v.description('Major units; negative on a credit line (unused time given back, credit applied).'));

export const invoiceId = v.pipe(v.string(), v.regex(INVOICE_ID_PATTERN));

const recordFields = {
  id: invoiceId,
  number: nullableString,
  totalAmount: amount,
  totalTax: amount,
  currency,
  status: v.picklist(customerInvoiceStatuses),
  issueDate: nullableIsoTime,
  dueDate: nullableIsoTime,
  paidOnDate: nullableIsoTime,
  items: v.array(
    named(
      'CustomerInvoiceItem',
      v.strictObject({
        description: v.string(),
        quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
        unitPrice: lineAmount,
        amount: lineAmount,
        taxRate: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
        taxAmount: lineAmount,
      }),
    ),
  ),
  buyer: party,
  seller: party,
  customerId: nullableString,
  organizationTaxNumber: v.nullable(v.strictObject({ type: v.string(), value: v.string() })),
  shippingFee: amount,
  /** When it was voided (null: it was not). */
  voidedAt: nullableIsoTime,
  /**
   * Why the platform voided it: `subscription_ended` (the subscription it billed ended unpaid), `subscription_paused`
   * (it was paused unpaid: that period is not charged); null otherwise.
   */
  voidReason: nullableString,
  creditedAmount: v.pipe(
    amount,
    v.description(
      'What the refunds of the payment that paid this invoice gave back, with their tax (0: nothing): each counted once it is `refunded`, whether a prorated cancellation, the refunds API or the dashboard made it (a failed refund counts nothing). Each refund is listed with its payment (`GET …/transactions/{id}/refunds`).',
    ),
  ),
};

export const customerInvoice = named('CustomerInvoice', v.strictObject(recordFields));
export const customerInvoiceResponse = objectEnvelope('CustomerInvoiceResponse', customerInvoice);

// Merchant face

/** Invoice list query of the merchant API: `status`, `search`, and `page` ≥ 1 with `limit` 1..100 (default 20). */
export const merchantInvoiceListQuery = v.strictObject({
  status: v.optional(v.picklist(customerInvoiceStatuses, `must be one of ${customerInvoiceStatuses.join(', ')}`)),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxCodePoints(L.search, `must be at most ${L.search} characters`))),
  ...pageQuery,
});

/** An invoice as the merchant API shows it: the customer invoice record, and `merchantId` (= the organization's id). */
export const publicApiInvoice = named('PublicApiInvoice', v.strictObject({ ...recordFields, merchantId: uuid, createdAt: isoTime }));

/** One page of the merchant's invoices, newest first. */
export const publicApiInvoiceListResponse = named(
  'PublicApiInvoiceListResponse',
  v.strictObject({
    data: v.array(publicApiInvoice),
    pagination,
  }),
);

/** The invoice PDF (the contract check reads its bytes as text: it must start like a PDF). */
export const invoicePdf = v.pipe(v.string(), v.startsWith('%PDF-'), v.description('The invoice as a PDF document (binary).'));

/** What checkout's rules read of an invoice (the port's pure part). */
export { payableInvoiceStatuses, type Invoice } from './port.ts';
