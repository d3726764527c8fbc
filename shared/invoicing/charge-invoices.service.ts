/**
 * The invoices of the charges the platform makes on its own (a subscription's periods, its items changes, its
 * reactivations): each issued with its charge's outcome, in the same transaction — paid, or open until its dunning
 * ends — and later voided, marked paid by a retry, or credited by a refund, each as an item of the transaction that
 * does it. The organization API's own invoices are ./invoices.service.ts's.
 */
import type { Merchant } from '../domain/merchants.ts';
import type { TransactItem } from '../platform/db/types.ts';
import * as repo from './invoices.repository.ts';
import { type CustomerInvoice, type InvoiceParty, invoiceNumber, priceInvoice, SUBSCRIPTION_SERIES, untouchedSince } from './invoices.rules.ts';
import { invoiceSeller } from './invoices.service.ts';

export interface ChargeInvoiceInput {
  /** Fixed by the caller per charge. */
  id: string;
  customerId: string;
  buyer: InvoiceParty;
  currency: string;
  /** The charged lines, each with the tax rate (a percentage) it was charged at: 0 when untaxed. */
  items: Array<{ description: string; quantity: number; unitPriceMinor: number; taxRate?: number | undefined }>;
  /** When the charge succeeded; null: it failed, and the invoice stays open until `dueAt`. */
  paidAt: string | null;
  dueAt: string;
}

/**
 * The invoice of a charge the platform made on its own (a subscription's period), issued at once: `paid` when the
 * charge succeeded, `open` until `dueAt` when it failed. Its number is the next of the organization's `SUB` series
 * from this process's block (one counter write a block, so a million renewals of one organization never take turns
 * on one item); answers the transaction item that writes it (new: `attribute_not_exists`), for the transaction that
 * records the charge's outcome. Numbers never repeat; a number is skipped when that transaction does not land
 * (another worker recorded the same step first) and a block's rest when it is dropped (docs/design/invoice-numbers.md).
 */
export async function chargeInvoice(organization: Merchant, input: ChargeInvoiceInput, now: string): Promise<TransactItem> {
  const number = await repo.takeChargeInvoiceNumber(organization.id);
  // Priced by the invoices' own rule (each line's tax rounded once), which is how the charge was taxed: the invoice's
  // total is what was charged.
  const priced = priceInvoice(
    input.items.map((it) => ({ description: it.description, quantity: it.quantity, unitPriceMinor: it.unitPriceMinor, taxRate: it.taxRate ?? 0 })),
    0,
  );
  return repo.putNewCustomerInvoice({
    id: input.id,
    organizationId: organization.id,
    number: invoiceNumber(number, SUBSCRIPTION_SERIES),
    status: input.paidAt ? 'paid' : 'open',
    currency: input.currency,
    ...priced,
    shippingFeeMinor: 0,
    buyer: input.buyer,
    ...invoiceSeller(),
    customerId: input.customerId,
    organizationTaxNumber: null,
    issueDate: now,
    dueDate: input.dueAt,
    paidOnDate: input.paidAt,
    ...untouchedSince(now),
  });
}

/**
 * The item that voids the organization's open invoice `invoiceId` of a charge, for `reason`, for the transaction that ends what it
 * billed; none when it is not open (paid, already voided, or never written).
 */
export async function voidedChargeInvoice(organizationId: string, invoiceId: string, at: string, reason: string): Promise<TransactItem[]> {
  const invoice = await repo.getCustomerInvoice(organizationId, invoiceId);
  return invoice?.status === 'open' ? [repo.voidOpenChargeInvoice(invoiceId, at, reason)] : [];
}

/**
 * The open invoice `invoiceId` of a charge as it was issued (its lines, with their tax, and its totals): what a retry
 * of its declined charge pays. Null when it is not open (paid, voided, or never written).
 */
export async function openChargeInvoice(
  organizationId: string,
  invoiceId: string,
): Promise<Pick<CustomerInvoice, 'items' | 'totalAmountMinor' | 'totalTaxMinor'> | null> {
  const invoice = await repo.getCustomerInvoice(organizationId, invoiceId);
  return invoice?.status === 'open' ? { items: invoice.items, totalAmountMinor: invoice.totalAmountMinor, totalTaxMinor: invoice.totalTaxMinor } : null;
}

/** The item that credits the paid invoice `invoiceId` with a refund of `amountMinor`, for the refund's transaction. */
export const creditedChargeInvoice = (invoiceId: string, amountMinor: number, at: string): TransactItem => repo.creditPaidInvoice(invoiceId, amountMinor, at);

/** The item that marks an open charge invoice paid (a retried charge that succeeded), for the same transaction. */
export const chargeInvoicePaid = (invoiceId: string, paidAt: string): TransactItem => repo.markChargeInvoicePaid(invoiceId, paidAt);
