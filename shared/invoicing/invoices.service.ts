/**
 * Customer invoices: drafts, issue, void and reads through the organization API; list, get and the PDF through
 * the merchant API. Rules in shared/invoicing/invoices.rules.ts; writes in shared/invoicing/invoices.repository.ts; the
 * invoices of the platform's own charges in ./charge-invoices.service.ts. See docs/reference-invoices.md ("Customer
 * invoices").
 */
import { sellerOfRecord } from '../platform/seller-of-record.ts';
import { CONTENDED, failedParts, type NamedParts, transactWrite, untilLanded } from '../platform/db/transactions.ts';
import { findCustomer } from '../customers/index.ts';
import * as repo from './invoices.repository.ts';
import { closeForPayment } from '../platform/db/payment-locks.ts';
import { BadRequestError, ConflictError, DomainError, UnprocessableError } from '../domain/errors.ts';
import {
  billsSubscription,
  closableFrom,
  INVOICE_LIMITS,
  invoiceNumber,
  priceInvoice,
  statusAt,
  taxPercentOf,
  type ClosedInvoiceStatus,
  type CustomerInvoice,
  type CustomerInvoiceStatus,
  type InvoiceParty,
  untouchedSince,
} from './invoices.rules.ts';
import type { Merchant } from '../domain/merchants.ts';
import { customerInvoiceNotFound, customerNotFound, merchantInvoiceNotFound } from '../domain/unknown-ids.ts';
import { newInvoiceId } from './port.ts';
import { taxPort } from '../domain/tax.ts';
import { toMajorUnits, toMinorUnits } from '../domain/money.ts';
import { hasInvoicePdf, invoicePdfKey, invoicePdfUrl, storedInvoicePdf } from '../platform/storage/invoice-pdfs.ts';
import { paginationOf } from '../platform/http/pagination.ts';

/** The record as both faces show it (major units; the status as of `now`). */
function recordView(i: CustomerInvoice, now: string) {
  const major = (minor: number) => toMajorUnits(minor, i.currency);
  return {
    id: i.id,
    number: i.number,
    totalAmount: major(i.totalAmountMinor),
    totalTax: major(i.totalTaxMinor),
    currency: i.currency,
    status: statusAt(i, now),
    issueDate: i.issueDate,
    dueDate: i.dueDate,
    paidOnDate: i.paidOnDate,
    items: i.items.map((it) => ({
      description: it.description,
      quantity: it.quantity,
      unitPrice: major(it.unitPriceMinor),
      amount: major(it.amountMinor),
      taxRate: it.taxRate,
      taxAmount: major(it.taxAmountMinor),
    })),
    buyer: i.buyer,
    seller: i.seller,
    customerId: i.customerId,
    organizationTaxNumber: i.organizationTaxNumber,
    shippingFee: major(i.shippingFeeMinor),
    voidedAt: i.voidedAt,
    voidReason: i.voidReason,
    creditedAmount: major(i.creditedMinor),
  };
}

export const customerInvoiceView = (i: CustomerInvoice, now = new Date().toISOString()) => recordView(i, now);
const merchantInvoiceView = (i: CustomerInvoice, now: string) => ({ ...recordView(i, now), merchantId: i.organizationId, createdAt: i.createdAt });

export interface CreateCustomerInvoiceInput {
  currency: string;
  customerId: string | null;
  buyer: InvoiceParty;
  items: Array<{ description: string; quantity: number; unitPrice: number; taxRate: number }>;
  shippingFee: number;
  organizationTaxNumber: { type: string; value: string } | null;
}

/** `amount` (major units) in minor units of `currency`; 400 when it has more decimals than the currency allows. */
function minorOf(amount: number, currency: string, field: string): number {
  const minor = toMinorUnits(amount, currency);
  if (minor === null)
    throw new BadRequestError('request.validation_failed', `${field}: has more decimals than ${currency} allows`, {
      issues: [{ field, message: `has more decimals than ${currency} allows` }],
    });
  return minor;
}

/** The stage's seller of record (the platform's legal entity, from this function's configuration) as a new draft names it. */
export function invoiceSeller(): Pick<CustomerInvoice, 'seller' | 'sellerTaxNumber'> {
  const { taxNumber, ...seller } = sellerOfRecord();
  return { seller, sellerTaxNumber: { ...taxNumber } };
}

/** `priced`, whose total is at most the limit of an invoice's (`INVOICE_LIMITS.maxTotal`); else 422 `customer_invoice.amount_over_limit`. */
function withinTotalLimit<P extends { totalAmountMinor: number }>(priced: P, currency: string): P {
  if (!Number.isSafeInteger(priced.totalAmountMinor) || toMajorUnits(priced.totalAmountMinor, currency) > INVOICE_LIMITS.maxTotal) {
    throw new UnprocessableError('customer_invoice.amount_over_limit', `An invoice's total is at most ${INVOICE_LIMITS.maxTotal} ${currency}.`);
  }
  return priced;
}

/**
 * A new draft of the organization: priced (tax per item half-even, shipping untaxed), the platform as seller of
 * record (the stage's legal entity, its address and tax number, kept on the invoice from now on);
 * 404 `customer.not_found` for a customerId that is not the organization's; 422
 * `customer_invoice.amount_over_limit` for a total above the limit.
 */
export async function createCustomerInvoice(organization: Merchant, input: CreateCustomerInvoiceInput, now = new Date().toISOString()) {
  const items = input.items.map((it, n) => ({
    description: it.description,
    quantity: it.quantity,
    taxRate: it.taxRate,
    unitPriceMinor: minorOf(it.unitPrice, input.currency, `items[${n}].unitPrice`),
  }));
  const shippingFeeMinor = minorOf(input.shippingFee, input.currency, 'shippingFee');
  const priced = withinTotalLimit(priceInvoice(items, shippingFeeMinor), input.currency);
  if (input.customerId && !(await findCustomer(organization.id, input.customerId))) {
    throw customerNotFound();
  }
  const invoice: CustomerInvoice = {
    id: newInvoiceId(),
    organizationId: organization.id,
    number: null,
    status: 'draft',
    currency: input.currency,
    ...priced,
    shippingFeeMinor,
    buyer: input.buyer,
    ...invoiceSeller(),
    customerId: input.customerId,
    organizationTaxNumber: input.organizationTaxNumber,
    issueDate: null,
    dueDate: null,
    paidOnDate: null,
    ...untouchedSince(now),
  };
  await transactWrite([['invoice', [repo.putNewCustomerInvoice(invoice)]]]);
  return customerInvoiceView(invoice, now);
}

async function ownInvoice(organization: Merchant, id: string): Promise<CustomerInvoice> {
  const invoice = await repo.getCustomerInvoice(organization.id, id);
  if (!invoice) throw customerInvoiceNotFound();
  return invoice;
}

/** The organization's customer invoice; 404 `customer_invoice.not_found`. */
export async function getCustomerInvoice(organization: Merchant, id: string) {
  return customerInvoiceView(await ownInvoice(organization, id));
}

const notIssuable = (status: CustomerInvoiceStatus) =>
  new UnprocessableError('customer_invoice.not_draft', `Only a draft can be issued; this invoice is ${status}.`, { status });

/** How often an issue takes the next number again after another issue of the organization took it first. */

/**
 * The lines and totals of `invoice` taxed as the platform, its seller of record, owes: every line at the standard rate
 * of where the buyer is (`buyer.country`, and `buyer.state` in the US and Canada) at `now` (docs/tax.md: reduced rates
 * by category are not covered), whatever the draft's lines said. 422 `customer_invoice.buyer_country_required` without
 * a country, the tax port's 422 `checkout.tax_unavailable` for a place it has no rate for, and
 * `customer_invoice.amount_over_limit` for a total the tax takes above the limit.
 */
function taxedWhereTheBuyerIs(invoice: CustomerInvoice, now: string): Pick<CustomerInvoice, 'items' | 'totalTaxMinor' | 'totalAmountMinor'> {
  const { country, state } = invoice.buyer;
  if (!country?.trim()) {
    throw new UnprocessableError(
      'customer_invoice.buyer_country_required',
      "buyer.country: the platform, as seller of record, taxes an invoice where its buyer is: set the buyer's country (and state in the US or Canada) before issuing.",
      { field: 'buyer.country' },
    );
  }
  const { rate } = taxPort.quote({ lines: [], currency: invoice.currency, address: { country, state }, at: new Date(now) });
  const percent = taxPercentOf(rate);
  return withinTotalLimit(
    priceInvoice(
      invoice.items.map((i) => ({ description: i.description, quantity: i.quantity, unitPriceMinor: i.unitPriceMinor, taxRate: percent })),
      invoice.shippingFeeMinor,
    ),
    invoice.currency,
  );
}

/**
 * Issues a draft: `open`, taxed where its buyer is (`taxedWhereTheBuyerIs`), with the organization's next number
 * (`INV-000001`, …) and the given dates, in one transaction with the organization's counter (raised from the number
 * read, so two issues never share a number and numbers have no gaps). Another issue taking the number first means:
 * read the counter again and retry. 422 `customer_invoice.not_draft` for an invoice that is not a draft.
 */
export async function issueCustomerInvoice(organization: Merchant, id: string, input: { issuedAt: string; dueAt: string }, now = new Date().toISOString()) {
  let invoice = await ownInvoice(organization, id);
  // Tried again while other issues take the numbers, for at most the contention budget (well inside the function's
  // time): then 409, never a request cut off by its timeout.
  const landed = await untilLanded(async (): Promise<CustomerInvoice | typeof CONTENDED> => {
    if (invoice.status !== 'draft') throw notIssuable(statusAt(invoice, now));
    const taxed = taxedWhereTheBuyerIs(invoice, now);
    const last = await repo.lastInvoiceNumber(organization.id);
    const issued: CustomerInvoice = {
      ...invoice,
      ...taxed,
      status: 'open',
      number: invoiceNumber(last + 1),
      issueDate: input.issuedAt,
      dueDate: input.dueAt,
      updatedAt: now,
    };
    const parts: NamedParts<'number' | 'invoice'> = [
      ['number', [repo.takeInvoiceNumber(organization.id, last)]],
      ['invoice', [repo.issueDraft(issued)]],
    ];
    try {
      await transactWrite(parts, 1);
      return issued;
    } catch (e) {
      const failed = failedParts(e, parts);
      if (!failed) throw e;
      // Issued or voided meanwhile: decide on what it is now. Another issue took the number: read the counter again.
      if (failed.has('invoice')) invoice = await ownInvoice(organization, id);
      return CONTENDED;
    }
  });
  if (landed === CONTENDED) throw new ConflictError('customer_invoice.busy', 'Too many invoices are being issued at once; try again.');
  return customerInvoiceView(landed, now);
}

/**
 * Voids an invoice that is `draft`, `open`/`past_due` or `uncollectible` (a voided one answers as it is). 422
 * `customer_invoice.not_voidable` for a paid invoice; see `closeCustomerInvoice`.
 */
export const voidCustomerInvoice = (organization: Merchant, id: string, now = new Date().toISOString()) =>
  closeCustomerInvoice(organization, id, 'voided', now);

/**
 * Marks an `open` or `past_due` invoice uncollectible: the organization no longer expects it paid, and it can no
 * longer be paid (an uncollectible one answers as it is; it can still be voided). 422 `customer_invoice.not_open`
 * for a draft, paid or voided invoice; see `closeCustomerInvoice`.
 */
export const markCustomerInvoiceUncollectible = (organization: Merchant, id: string, now = new Date().toISOString()) =>
  closeCustomerInvoice(organization, id, 'uncollectible', now);

/** Why `invoice` cannot be closed with `to` (null: it can, or already is). */
function closeRefusal(invoice: CustomerInvoice, to: ClosedInvoiceStatus, now: string): UnprocessableError | null {
  const status = statusAt(invoice, now);
  // A subscription's invoice is its subscription's to close (a retry is charging it, or will): closed here, a retry's
  // payment could never settle.
  if (invoice.status !== to && billsSubscription(invoice.number)) {
    return new UnprocessableError(
      'customer_invoice.subscription_invoice',
      "A subscription's invoice is closed by its subscription: its retries pay it, and it is voided when the subscription ends unpaid or is paused.",
      { status },
    );
  }
  if (invoice.status === to || closableFrom[to].includes(invoice.status)) return null;
  return to === 'voided'
    ? new UnprocessableError('customer_invoice.not_voidable', `A ${status} invoice cannot be voided.`, { status })
    : new UnprocessableError('customer_invoice.not_open', `Only an open or past_due invoice can be marked uncollectible; this invoice is ${status}.`, {
        status,
      });
}

/**
 * Closes the invoice with `to` (`voided` or `uncollectible`); one already closed so answers as it is. When checkout
 * by invoice has made its payable order, the same transaction takes that order's payment lock for good, so the
 * order can no longer be paid (an uncollectible invoice's order is locked already). 409
 * `customer_invoice.payment_in_progress` while a buyer's payment of it is being processed.
 */
async function closeCustomerInvoice(organization: Merchant, id: string, to: ClosedInvoiceStatus, now: string) {
  for (let read = 0; ; read++) {
    const invoice = await ownInvoice(organization, id);
    if (invoice.status === to) return customerInvoiceView(invoice, now);
    const refusal = closeRefusal(invoice, to, now);
    if (refusal) throw refusal;
    // Written only on the invoice as read (its status and payable order): so the order a buyer opened a moment ago is
    // blocked with it, and the answer is the invoice as closed (its number, when it was issued meanwhile).
    const parts: NamedParts<'invoice' | 'orderLock'> = [
      ['invoice', [repo.closeInvoice(invoice, to, now)]],
      ['orderLock', invoice.payableOrderId && invoice.status !== 'uncollectible' ? [closeForPayment(invoice.payableOrderId, to, invoice.id)] : []],
    ];
    try {
      await transactWrite(parts);
      return customerInvoiceView({ ...invoice, status: to, ...(to === 'voided' ? { voidedAt: now } : {}), updatedAt: now }, now);
    } catch (e) {
      const failed = failedParts(e, parts);
      if (!failed) throw e;
      if (failed.has('orderLock')) {
        const current = await ownInvoice(organization, id);
        if (current.status === to) return customerInvoiceView(current, now);
        const refusalNow = closeRefusal(current, to, now);
        if (refusalNow) throw refusalNow;
        throw new ConflictError('customer_invoice.payment_in_progress', 'A payment of this invoice is being processed; try again once it has settled.');
      }
      // The invoice changed since it was read (issued, paid, closed, or its order made): decided again on what it is.
      if (read >= CLOSE_READS) throw new ConflictError('customer_invoice.busy', 'The invoice kept changing while it was being closed; try again.');
    }
  }
}

/** How many times a close reads the invoice again after it changed under it. */
const CLOSE_READS = 3;

// Merchant face

/** One page of the merchant's invoices, newest first (`status` as shown now; `search` in number, buyer name, customer id). */
export async function listMerchantInvoices(
  merchant: Merchant,
  q: { status?: CustomerInvoiceStatus | undefined; search?: string | undefined; page: number; limit: number },
  now = new Date().toISOString(),
) {
  const page = await repo.listCustomerInvoices(merchant.id, {
    ...(q.status ? { status: q.status } : {}),
    ...(q.search ? { search: q.search } : {}),
    offset: (q.page - 1) * q.limit,
    limit: q.limit,
    now,
  });
  return {
    data: page.invoices.map((i) => merchantInvoiceView(i, now)),
    pagination: paginationOf(q, page.totalCount),
  };
}

async function merchantInvoice(merchant: Merchant, id: string): Promise<CustomerInvoice> {
  const invoice = await repo.getCustomerInvoice(merchant.id, id);
  if (!invoice) throw merchantInvoiceNotFound();
  return invoice;
}

/** The merchant's invoice; 404 `invoice.not_found`. */
export async function getMerchantInvoice(merchant: Merchant, id: string, now = new Date().toISOString()) {
  return merchantInvoiceView(await merchantInvoice(merchant, id), now);
}

/** An invoice as the dashboard lists it: amounts in minor units, the status as of `now`. */
const invoiceSummary = (i: CustomerInvoice, now: string) => ({
  id: i.id,
  number: i.number,
  customerId: i.customerId,
  buyerName: i.buyer.name,
  totalAmountMinor: i.totalAmountMinor,
  currency: i.currency,
  status: statusAt(i, now),
  issueDate: i.issueDate,
  createdAt: i.createdAt,
});

/** One page of the merchant's invoices for the dashboard, newest first (the filters of `listMerchantInvoices`). */
export async function merchantInvoiceSummaries(
  merchant: Merchant,
  q: { status?: CustomerInvoiceStatus | undefined; search?: string | undefined; offset: number; limit: number },
  now = new Date().toISOString(),
) {
  const page = await repo.listCustomerInvoices(merchant.id, {
    ...(q.status ? { status: q.status } : {}),
    ...(q.search ? { search: q.search } : {}),
    offset: q.offset,
    limit: q.limit,
    now,
  });
  return { totalCount: page.totalCount, data: page.invoices.map((i) => invoiceSummary(i, now)) };
}

/** The invoices of the merchant's customer `customerId`, newest first (at most `limit`), as the dashboard lists them. */
export async function customerInvoiceSummaries(merchant: Merchant, customerId: string, limit: number, now = new Date().toISOString()) {
  return (await repo.listInvoicesOfCustomer(merchant.id, customerId, limit)).map((i) => invoiceSummary(i, now));
}

/** Every invoice issued to the merchant's customer `customerId` (no drafts), newest first, as its billing portal lists them. */
export async function issuedInvoiceSummaries(merchant: Merchant, customerId: string, now = new Date().toISOString()) {
  return (await repo.listIssuedInvoicesOfCustomer(merchant.id, customerId)).map((i) => invoiceSummary(i, now));
}

/** The merchant's invoices of `ids` that exist, for the dashboard (unknown ids are left out). */
export async function merchantInvoiceSummariesOf(merchant: Merchant, ids: readonly string[], now = new Date().toISOString()) {
  const found = await Promise.all(ids.map((id) => repo.getCustomerInvoice(merchant.id, id)));
  return found.filter((i): i is CustomerInvoice => i !== null).map((i) => invoiceSummary(i, now));
}

/** The file name of an invoice's PDF: `<number>.pdf`, or `<id>.pdf` for a draft. */
const pdfFilename = (invoice: CustomerInvoice) => `${invoice.number ?? invoice.id}.pdf`;

/** How long a download waits for the rendering of an invoice's latest change (the renderer follows the table's stream). */
const PDF_WAIT_MS = 8_000;

/** 503: the invoice changed a moment ago and its PDF is still being rendered. */
const pdfPending = () =>
  new DomainError(
    503,
    'invoice.pdf_pending',
    "The invoice's PDF is being rendered after its latest change; retry in a few seconds.",
    {},
    { 'retry-after': '2' },
  );

/** How long after a change its rendering may still be on its way; a rendering missing for longer is asked for again. */
const RENDER_GRACE_MS = 30_000;

/**
 * The stored rendering of the invoice as it is now (`invoicePdfKey` of its `updatedAt`), polled until the renderer
 * has put it (it follows every change of an invoice on the table's stream, within a second or two). A rendering
 * missing well after the change (an invoice from before renderings were stored, a rendering that failed) is asked
 * for once (`requestPdfRender`) and waited for.
 */
async function waitForPdf<T>(invoice: CustomerInvoice, read: (key: string) => Promise<T | null>): Promise<T> {
  const key = invoicePdfKey(invoice.organizationId, invoice.id, invoice.updatedAt);
  const until = Date.now() + PDF_WAIT_MS;
  for (let asked = false; ; ) {
    const found = await read(key);
    if (found !== null) return found;
    if (!asked && Date.now() - Date.parse(invoice.updatedAt) > RENDER_GRACE_MS) {
      asked = true;
      await repo.requestPdfRender(invoice.id, invoice.updatedAt, new Date().toISOString());
    }
    if (Date.now() > until) throw pdfPending();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The invoice's PDF and its file name (`<number>.pdf`, or `<id>.pdf` for a draft): the rendering stored when it last
 * changed (./invoice-pdfs.service.ts), so no download function carries the renderer. 404 `invoice.not_found`; 503
 * `invoice.pdf_pending` when its rendering is late.
 */
export async function merchantInvoicePdf(merchant: Merchant, id: string): Promise<{ pdf: Uint8Array; filename: string }> {
  const invoice = await merchantInvoice(merchant, id);
  return { pdf: await waitForPdf(invoice, storedInvoicePdf), filename: pdfFilename(invoice) };
}

/** A presigned download of the invoice's stored PDF, as an attachment (the browser faces redirect to it); as `merchantInvoicePdf`. */
export async function merchantInvoicePdfUrl(merchant: Merchant, id: string): Promise<string> {
  const invoice = await merchantInvoice(merchant, id);
  const key = await waitForPdf(invoice, async (k) => ((await hasInvoicePdf(k)) ? k : null));
  return invoicePdfUrl(key, pdfFilename(invoice));
}
