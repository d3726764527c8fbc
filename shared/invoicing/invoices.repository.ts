/**
 * Invoices in the table: customer invoices (shared/invoicing/invoices.rules.ts) and the invoice port's view of them
 * (shared/invoicing/port.ts) are the same item, `INVOICE#<id>`, listed per organization through gsi1 (creation)
 * and gsi2 (last update) as the catalog collection `INVOICE`. The item also carries the port's fields
 * (`merchantId`, `amountDueMinor`, `lines`), so checkout by invoice reads it as it reads any invoice.
 *
 * Writes, each with its precondition: a draft is created new; issue moves `draft` → `open` together with the
 * organization's number counter (one transaction); a subscription's charge invoice is written numbered, in the `SUB` series; closing moves `draft`/`open`/`uncollectible` → `voided` or
 * `open` → `uncollectible` and blocks the payable order's payment in the same transaction; checkout's settlement moves `open` → `paid`
 * (`markInvoicePaid`, in the payment's own transaction). Checkout by invoice links the payable order once
 * (`linkPayableOrder`). `putInvoice` writes a bare port invoice (tests of checkout by invoice).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ClosedInvoiceStatus, CustomerInvoice, CustomerInvoiceStatus } from './invoices.rules.ts';
import { billsSubscription, closableFrom, statusAt, SUBSCRIPTION_SERIES } from './invoices.rules.ts';
import type { Invoice, InvoicePort } from './port.ts';
import { chargeInvoiceCounterKey, CustomerInvoiceEntity, invoiceCounterKey, invoiceKey, PortInvoiceEntity } from './invoice.entity.ts';
import { db, putFresh, tableName, updateIfCondition } from '../platform/db/client.ts';
import { nextFromBlock } from '../platform/db/counter-blocks.ts';
import { catalogListing } from '../platform/db/keys.ts';
import { listCatalogPage, listOfCustomer } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';

/** A customer invoice item back, or null for a bare port invoice (no `items`). */
const customerInvoiceOf = (i: Record<string, unknown>): CustomerInvoice | null => (Array.isArray(i.items) ? CustomerInvoiceEntity.parse(i) : null);

/** The port's view of an invoice item (a customer invoice or a bare port invoice), its status as of `now`. */
function portInvoiceOf(i: Record<string, unknown>, now: string): Invoice {
  const { dueDate, number, ...invoice } = PortInvoiceEntity.parse(i);
  return {
    ...invoice,
    status: invoice.status === 'past_due' ? invoice.status : statusAt({ status: invoice.status, dueDate }, now),
    ...(billsSubscription(number) ? { billsSubscription: true } : {}),
  };
}

async function readItem(id: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: invoiceKey(id), ConsistentRead: true }));
  return Item;
}

/** The invoice `id`, whoever it belongs to, or null (strongly consistent: a link just made is seen). */
export async function getInvoice(id: string, now = new Date().toISOString()): Promise<Invoice | null> {
  const item = await readItem(id);
  return item ? portInvoiceOf(item, now) : null;
}

/** The invoice port over the table. */
export const tableInvoicePort: InvoicePort = { getInvoice: (id) => getInvoice(id) };

/** Writes a bare port invoice (its id must be new): tests of checkout by invoice set up invoices with it. */
export async function putInvoice(invoice: Invoice): Promise<void> {
  const item = PortInvoiceEntity.item({ ...invoice, taxMinor: invoice.taxMinor ?? 0, dueDate: null });
  await putFresh(item);
}

/**
 * Links the invoice to the order a buyer pays it with, for the transaction that creates that order: only while
 * the invoice exists, has no payable order yet and is open (stored `open` covers `past_due`). Of concurrent
 * links, one wins.
 */
export const linkPayableOrder = (invoiceId: string, orderId: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: invoiceKey(invoiceId),
    UpdateExpression: 'SET payableOrderId = :order',
    // Never a subscription's invoice (its charges pay it), whatever a reader saw.
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(payableOrderId) AND #status IN (:s0, :s1) AND NOT begins_with(#number, :sub)',
    ExpressionAttributeNames: { '#status': 'status', '#number': 'number' },
    ExpressionAttributeValues: { ':order': orderId, ':s0': 'open', ':s1': 'past_due', ':sub': `${SUBSCRIPTION_SERIES}-` },
  },
});

// Customer invoices

/** The customer invoice `id` of `organizationId`, or null (also for another organization's, or a bare port invoice). */
export async function getCustomerInvoice(organizationId: string, id: string): Promise<CustomerInvoice | null> {
  const item = await readItem(id);
  const invoice = item ? customerInvoiceOf(item) : null;
  return invoice && invoice.organizationId === organizationId ? invoice : null;
}

/** Creates a draft (its id must be new). */
export const putNewCustomerInvoice = (i: CustomerInvoice): TransactItem => ({
  Put: { TableName: tableName(), Item: CustomerInvoiceEntity.item(i), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** The organization's last issued number (0 before its first issue), strongly consistent. */
export async function lastInvoiceNumber(organizationId: string): Promise<number> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: invoiceCounterKey(organizationId), ConsistentRead: true }));
  return Item ? Number(Item.last) : 0;
}

/** Raises the organization's counter from `last` to `last + 1`: fails when another issue took `last + 1` first. */
export const takeInvoiceNumber = (organizationId: string, last: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: invoiceCounterKey(organizationId),
    UpdateExpression: 'SET #last = :next',
    ConditionExpression: last === 0 ? 'attribute_not_exists(pk)' : '#last = :last',
    ExpressionAttributeNames: { '#last': 'last' },
    ExpressionAttributeValues: { ':next': last + 1, ...(last === 0 ? {} : { ':last': last }) },
  },
});

/** Issues the draft `i` (now `issued`: open, numbered, dated): only while it is still a draft. */
export const issueDraft = (issued: CustomerInvoice): TransactItem => ({
  // The whole item again, while it is a draft: a draft is taxed anew at its issue, so its lines, totals and the port's
  // fields (amountDueMinor, taxMinor, lines) change with its status, number and dates. A draft has no payable order
  // and no payment lock, so nothing else is on it to keep.
  Put: {
    TableName: tableName(),
    Item: CustomerInvoiceEntity.item(issued),
    ConditionExpression: 'attribute_exists(pk) AND #status = :draft',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':draft': 'draft' },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});

/**
 * Closes the invoice with `to` (`voided` also records `voidedAt`): only while its stored status is one it may be
 * closed from (`closableFrom`: voided from `draft`, `open` (also past due) or `uncollectible`; uncollectible from
 * `open`), and is still the status and payable order `invoice` was read with — an invoice issued meanwhile, or whose
 * checkout order was made meanwhile (whose payment the same transaction must then block), is decided again.
 */
export const closeInvoice = (invoice: CustomerInvoice, to: ClosedInvoiceStatus, at: string): TransactItem => {
  const from = closableFrom[to];
  return {
    Update: {
      TableName: tableName(),
      Key: invoiceKey(invoice.id),
      UpdateExpression: `SET #status = :to, updatedAt = :at, gsi2sk = :gsi2sk${to === 'voided' ? ', voidedAt = :at' : ''}`,
      ConditionExpression: [
        'attribute_exists(pk)',
        `#status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
        '#status = :was',
        invoice.payableOrderId ? 'payableOrderId = :order' : 'attribute_not_exists(payableOrderId)',
      ].join(' AND '),
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':to': to,
        ':at': at,
        ':was': invoice.status,
        ...(invoice.payableOrderId ? { ':order': invoice.payableOrderId } : {}),
        ...Object.fromEntries(from.map((status, i) => [`:from${i}`, status])),
        ':gsi2sk': catalogListing('INVOICE', invoice.organizationId, invoice.id, invoice.createdAt, at).gsi2sk,
      },
    },
  };
};

/**
 * Marks the invoice paid by its payable order `orderId` at `paidAt`, for the settlement transaction of that
 * order's payment: only while the invoice is open (a void blocks the order's payment first, so an open invoice
 * is what a settling payment finds).
 */
export const markInvoicePaid = (invoiceId: string, orderId: string, paidAt: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: invoiceKey(invoiceId),
    UpdateExpression: 'SET #status = :paid, paidOnDate = :at, updatedAt = :at, gsi2sk = :gsi2sk',
    ConditionExpression: 'attribute_exists(pk) AND #status = :open AND payableOrderId = :order',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':paid': 'paid',
      ':open': 'open',
      ':order': orderId,
      ':at': paidAt,
      // gsi2sk depends only on the last update and the id.
      ':gsi2sk': catalogListing('INVOICE', '', invoiceId, paidAt, paidAt).gsi2sk,
    },
  },
});

/**
 * Asks for the invoice's PDF to be rendered again, as it is (`pdfRequestedAt`: a change the renderer on the table's
 * stream sees, which changes nothing else): only while it is still the version read, since a newer one is rendered
 * anyway. For an invoice whose rendering is missing (made before invoices were rendered on change, or a rendering
 * that failed).
 */
export async function requestPdfRender(invoiceId: string, updatedAt: string, at: string): Promise<void> {
  await updateIfCondition({
    TableName: tableName(),
    Key: invoiceKey(invoiceId),
    UpdateExpression: 'SET pdfRequestedAt = :at',
    ConditionExpression: 'attribute_exists(pk) AND updatedAt = :version',
    ExpressionAttributeValues: { ':at': at, ':version': updatedAt },
  });
}

/**
 * Takes the next number of the organization's subscription invoices (the `SUB` series) from this process's block
 * (shared/platform/db/counter-blocks.ts: the counter is written once a block, not once a number): for the invoices
 * of charges the platform makes on its own, written in the transaction that records the charge's outcome.
 */
export const takeChargeInvoiceNumber = (organizationId: string): Promise<number> => nextFromBlock(chargeInvoiceCounterKey(organizationId));

/**
 * Voids an open invoice of a charge the platform made on its own, for `reason` (the subscription it bills ended
 * unpaid): only while it is open, so it is voided once, and never once paid.
 */
export const voidOpenChargeInvoice = (invoiceId: string, at: string, reason: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: invoiceKey(invoiceId),
    UpdateExpression: 'SET #status = :voided, voidedAt = :at, voidReason = :reason, updatedAt = :at, gsi2sk = :gsi2sk',
    ConditionExpression: 'attribute_exists(pk) AND #status = :open',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':voided': 'voided',
      ':open': 'open',
      ':at': at,
      ':reason': reason,
      ':gsi2sk': catalogListing('INVOICE', '', invoiceId, at, at).gsi2sk,
    },
  },
});

/** Credits a paid invoice with `amountMinor` a refund gave back (added to what earlier refunds credited). */
export const creditPaidInvoice = (invoiceId: string, amountMinor: number, at: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: invoiceKey(invoiceId),
    UpdateExpression: 'ADD creditedMinor :amount SET updatedAt = :at, gsi2sk = :gsi2sk',
    ConditionExpression: 'attribute_exists(pk) AND #status = :paid',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':amount': amountMinor,
      ':paid': 'paid',
      ':at': at,
      ':gsi2sk': catalogListing('INVOICE', '', invoiceId, at, at).gsi2sk,
    },
  },
});

/** Marks an open invoice of a charge the platform made on its own (no payable order) paid at `paidAt`. */
export const markChargeInvoicePaid = (invoiceId: string, paidAt: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: invoiceKey(invoiceId),
    UpdateExpression: 'SET #status = :paid, paidOnDate = :at, updatedAt = :at, gsi2sk = :gsi2sk',
    ConditionExpression: 'attribute_exists(pk) AND #status = :open',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':paid': 'paid',
      ':open': 'open',
      ':at': paidAt,
      ':gsi2sk': catalogListing('INVOICE', '', invoiceId, paidAt, paidAt).gsi2sk,
    },
  },
});

/** The invoices of the organization's customer `customerId`, newest first (the `limit` newest). */
export async function listInvoicesOfCustomer(organizationId: string, customerId: string, limit: number): Promise<CustomerInvoice[]> {
  return (await listOfCustomer('INVOICE', organizationId, customerId, limit)).flatMap((i) => customerInvoiceOf(i) ?? []);
}

/** Every invoice issued to the customer (drafts are not theirs yet), newest first: one Query of its gsi4 partition. */
export async function listIssuedInvoicesOfCustomer(organizationId: string, customerId: string): Promise<CustomerInvoice[]> {
  const issued = { expression: '#status <> :draft', names: { '#status': 'status' }, values: { ':draft': 'draft' } };
  return (await listOfCustomer('INVOICE', organizationId, customerId, undefined, issued)).flatMap((i) => customerInvoiceOf(i) ?? []);
}

/**
 * One page of the organization's customer invoices, newest first: optionally only those showing `status` at
 * `now` (`past_due` and `open` are told apart by the due date) and those whose number, buyer name or customer id
 * contains `search` (case-insensitive). A Query of the organization's gsi1 partition, never a Scan.
 */
export async function listCustomerInvoices(
  organizationId: string,
  o: { status?: CustomerInvoiceStatus; search?: string; offset: number; limit: number; now: string },
): Promise<{ totalCount: number; invoices: CustomerInvoice[] }> {
  const filters: string[] = ['attribute_exists(#items)'];
  const names: Record<string, string> = { '#items': 'items' };
  const values: Record<string, unknown> = {};
  if (o.status) {
    names['#status'] = 'status';
    if (o.status === 'past_due' || o.status === 'open') {
      values[':open'] = 'open';
      values[':now'] = o.now;
      filters.push(o.status === 'past_due' ? '#status = :open AND dueDate < :now' : '#status = :open AND dueDate >= :now');
    } else {
      values[':status'] = o.status;
      filters.push('#status = :status');
    }
  }
  if (o.search) {
    names['#text'] = 'searchText';
    values[':text'] = o.search.toLowerCase();
    filters.push('contains(#text, :text)');
  }
  const page = await listCatalogPage('INVOICE', organizationId, {
    sortBy: 'createdAt',
    sortDirection: 'desc',
    offset: o.offset,
    limit: o.limit,
    filter: { expression: filters.join(' AND '), names, ...(Object.keys(values).length ? { values } : {}) },
  });
  return { totalCount: page.totalCount, invoices: page.items.map((i) => customerInvoiceOf(i)!) };
}
