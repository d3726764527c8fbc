/**
 * The table-backed adapter of the invoice port (shared/invoices/port.ts). Each invoice is its own partition
 * `INVOICE#<id>`. The money issue will write invoices (issue them, move their states); until then only tests
 * write them, with `putInvoice`. Checkout by invoice writes one attribute: `payableOrderId`, the link to the
 * order a buyer pays the invoice with, set once (`linkPayableOrder`). Amounts are integer minor units.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Invoice, InvoiceLine, InvoicePort, InvoiceStatus } from '../invoices/port.ts';
import { payableInvoiceStatuses } from '../invoices/port.ts';
import { db, tableName } from './client.ts';
import { keys } from './keys.ts';
import type { TransactItem } from './types.ts';

const toItem = (i: Invoice) => ({
  ...keys.invoice(i.id),
  entity: 'invoice',
  id: i.id,
  merchantId: i.merchantId,
  status: i.status,
  currency: i.currency,
  amountDueMinor: i.amountDueMinor,
  ...(i.lines ? { lines: i.lines } : {}),
  ...(i.payableOrderId ? { payableOrderId: i.payableOrderId } : {}),
});

const fromItem = (i: Record<string, unknown>): Invoice => ({
  id: i.id as string,
  merchantId: i.merchantId as string,
  status: i.status as InvoiceStatus,
  currency: i.currency as string,
  amountDueMinor: Number(i.amountDueMinor),
  ...(Array.isArray(i.lines)
    ? {
        lines: (i.lines as Array<Record<string, unknown>>).map((l): InvoiceLine => ({
          description: l.description as string, quantity: Number(l.quantity), unitAmountMinor: Number(l.unitAmountMinor),
        })),
      }
    : {}),
  ...(typeof i.payableOrderId === 'string' ? { payableOrderId: i.payableOrderId } : {}),
});

/** The invoice `id`, whoever it belongs to, or null (strongly consistent: a link just made is seen). */
export async function getInvoice(id: string): Promise<Invoice | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.invoice(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}

/** The invoice port over the table. */
export const tableInvoicePort: InvoicePort = { getInvoice };

/** Writes a new invoice (its id must be new). The money issue's writer; tests use it to set up invoices. */
export async function putInvoice(invoice: Invoice): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: toItem(invoice), ConditionExpression: 'attribute_not_exists(pk)' }));
}

/**
 * Links the invoice to the order a buyer pays it with, for the transaction that creates that order: only while
 * the invoice exists, has no payable order yet and is still payable. Of concurrent links, one wins.
 */
export const linkPayableOrder = (invoiceId: string, orderId: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.invoice(invoiceId),
    UpdateExpression: 'SET payableOrderId = :order',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(payableOrderId) AND #status IN (:s0, :s1)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':order': orderId, ':s0': payableInvoiceStatuses[0], ':s1': payableInvoiceStatuses[1] },
  },
});
