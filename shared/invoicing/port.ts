/**
 * The invoice port: what checkout by invoice reads of an invoice. The invoices themselves are the organization
 * API's customer invoices (shared/invoicing/invoices.rules.ts), read through the table-backed adapter
 * (`shared/invoicing/invoices.repository.ts`), which gives an open invoice past its due date as `past_due`. Pure types and rules
 * only (no I/O).
 */
import { randomBytes } from 'node:crypto';

export const invoiceStatuses = ['draft', 'open', 'past_due', 'paid', 'voided', 'uncollectible'] as const;
export type InvoiceStatus = (typeof invoiceStatuses)[number];

/** The statuses in which a buyer may pay an invoice (the spec's "Checkout invoice" rule). */
export const payableInvoiceStatuses: readonly InvoiceStatus[] = ['open', 'past_due'];

export interface InvoiceLine {
  description: string;
  quantity: number;
  /** Minor units of the invoice's currency. */
  unitAmountMinor: number;
}

export interface Invoice {
  /** `inv_` and 32 hex digits. */
  id: string;
  merchantId: string;
  status: InvoiceStatus;
  currency: string;
  /** Minor units of `currency`. */
  amountDueMinor: number;
  /** The tax already in `amountDueMinor`, as the invoice calculated it (checkout does not tax it again); 0 when none. */
  taxMinor?: number;
  /** Itemised lines, when the invoice has them (with `taxMinor` they add up to `amountDueMinor`). */
  lines?: InvoiceLine[];
  /** The order a buyer pays this invoice with, once checkout by invoice has made it. */
  payableOrderId?: string;
  /**
   * True for the invoice of a subscription's charge (the `SUB` series): its subscription's own charges pay it (a
   * declined one is retried on the customer's card), so checkout never does — both would charge the buyer.
   */
  billsSubscription?: boolean;
}

export interface InvoicePort {
  /** The invoice `invoiceId`, or null when there is none. */
  getInvoice(invoiceId: string): Promise<Invoice | null>;
}

/** `inv_` and 32 random hex digits (128 bits): unguessable, as a buyer's checkout URL carries it. */
export const newInvoiceId = (): string => `inv_${randomBytes(16).toString('hex')}`;

export const INVOICE_ID_PATTERN = /^inv_[0-9a-f]{32}$/;
export const isInvoiceId = (id: string): boolean => INVOICE_ID_PATTERN.test(id);
