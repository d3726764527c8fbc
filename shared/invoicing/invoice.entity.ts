/**
 * An invoice (`INVOICE#<id>` / `INVOICE`): its own partition, read by id (the record's organization is checked). A
 * customer invoice (shared/invoicing/invoices.rules.ts) is listed per organization as the catalog collection
 * `INVOICE` (gsi1 by creation, gsi2 by last update) and carries the invoice port's fields beside its own
 * (`merchantId`, `amountDueMinor`, `taxMinor`, `lines`), so checkout by invoice reads it as it reads a bare port
 * invoice (shared/invoicing/port.ts), which has those fields only.
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';
import { catalogListing, customerListing } from '../platform/db/keys.ts';
import { type CustomerInvoice, searchTextOf, storedInvoiceStatuses } from './invoices.rules.ts';
import { type Invoice, type InvoiceLine, invoiceStatuses } from './port.ts';

/**
 * An invoice: its own partition, read by id. The same key as `catalogItem('INVOICE', id)`: an organization's
 * customer invoices are listed through `catalogListing('INVOICE', …)` (gsi1 by creation, gsi2 by last update), and
 * those of a customer also per customer (`customerListing`, gsi4).
 */
export const invoiceKey = (id: string) => ({ pk: `INVOICE#${id}`, sk: 'INVOICE' });
/** The last customer invoice number an organization issued: raised in the same transaction as each issue. */
export const invoiceCounterKey = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: 'INVOICENUMBER' });
/** The last number of an organization's subscription invoices (the `SUB` series), raised a block at a time. */
export const chargeInvoiceCounterKey = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: 'INVOICENUMBER#SUB' });

/** The port's lines of a customer invoice: its items, then its shipping; with its tax they add up to its total. */
export function portLines(i: Pick<CustomerInvoice, 'items' | 'shippingFeeMinor'>): InvoiceLine[] {
  return [
    ...i.items.map((it) => ({ description: it.description, quantity: it.quantity, unitAmountMinor: it.unitPriceMinor })),
    ...(i.shippingFeeMinor > 0 ? [{ description: 'Shipping', quantity: 1, unitAmountMinor: i.shippingFeeMinor }] : []),
  ];
}

const party = v.object({
  name: v.string(),
  address: orNull(v.string()),
  city: orNull(v.string()),
  country: orNull(v.string()),
  zip: orNull(v.string()),
  phoneNumber: orNull(v.string()),
  state: orNull(v.string()),
});

const taxNumber = orNull(v.object({ type: v.string(), value: v.string() }));

/** A customer invoice, with the port's fields beside it and its search text. */
export const CustomerInvoiceEntity = entity<CustomerInvoice, { id: string }>({
  kind: 'invoice',
  schema: v.object({
    id: v.string(),
    organizationId: v.string(),
    number: orNull(v.string()),
    status: v.picklist(storedInvoiceStatuses),
    currency: v.string(),
    items: v.array(
      v.object({
        description: v.string(),
        quantity: v.number(),
        unitPriceMinor: v.number(),
        amountMinor: v.number(),
        taxRate: v.number(),
        taxAmountMinor: v.number(),
      }),
    ),
    shippingFeeMinor: v.number(),
    totalTaxMinor: v.number(),
    totalAmountMinor: v.number(),
    buyer: party,
    seller: party,
    sellerTaxNumber: taxNumber,
    customerId: orNull(v.string()),
    organizationTaxNumber: taxNumber,
    issueDate: orNull(v.string()),
    dueDate: orNull(v.string()),
    paidOnDate: orNull(v.string()),
    voidedAt: orNull(v.string()),
    voidReason: orNull(v.string()),
    creditedMinor: v.optional(v.number(), 0),
    payableOrderId: orNull(v.string()),
    createdAt: v.string(),
    updatedAt: v.string(),
  }),
  key: (i) => invoiceKey(i.id),
  attributes: (i) => ({
    ...catalogListing('INVOICE', i.organizationId, i.id, i.createdAt, i.updatedAt),
    ...(i.customerId ? customerListing('INVOICE', i.organizationId, i.customerId) : {}),
    merchantId: i.organizationId,
    amountDueMinor: i.totalAmountMinor,
    taxMinor: i.totalTaxMinor,
    lines: portLines(i),
    searchText: searchTextOf(i),
  }),
});

/**
 * The port's view of an invoice item, a customer invoice's or a bare port invoice's, with its stored status and due
 * date (the status it shows depends on the time it is read at: `statusAt`).
 */
export interface StoredPortInvoice extends Invoice {
  dueDate: string | null;
  /** `INV-000001`, `SUB-000001`; none on a draft or a bare port invoice. */
  number?: string | null | undefined;
}

/** The port's view of any invoice item; a bare port invoice (tests of checkout by invoice) is written with it. */
export const PortInvoiceEntity = entity<StoredPortInvoice, { id: string }>({
  kind: 'invoice',
  schema: v.object({
    id: v.string(),
    merchantId: v.string(),
    status: v.picklist(invoiceStatuses),
    currency: v.string(),
    amountDueMinor: v.number(),
    taxMinor: v.optional(v.number(), 0),
    lines: v.optional(v.array(v.object({ description: v.string(), quantity: v.number(), unitAmountMinor: v.number() }))),
    payableOrderId: v.optional(v.string()),
    dueDate: orNull(v.string()),
    number: v.optional(v.nullable(v.string())),
  }),
  key: (i) => invoiceKey(i.id),
});
