/**
 * Orders. Each order is its own partition `ORDER#<id>` (buyer checkout reads an order by id alone); the
 * record's `merchantId` is checked on every merchant read. An order is written once, on the condition that its
 * id is new, and never updated. Amounts are integer minor units of the order's currency.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Order, OrderLine, OrderStatus } from './orders.rules.ts';
import { db, tableName } from '../platform/db/client.ts';
import { stringOrNull, withoutNulls } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import type { TransactItem } from '../platform/db/types.ts';

const toItem = (o: Order) => ({
  ...keys.order(o.id),
  entity: 'order',
  ...withoutNulls(o),
});

const fromItem = (i: Record<string, unknown>): Order => ({
  id: i.id as string,
  merchantId: i.merchantId as string,
  status: i.status as OrderStatus,
  currency: i.currency as string,
  lines: (i.lines as Array<Record<string, unknown>>).map(
    (l): OrderLine => ({
      type: l.type as OrderLine['type'],
      planId: stringOrNull(l.planId),
      description: l.description as string,
      quantity: Number(l.quantity),
      unitAmount: Number(l.unitAmount),
      amount: Number(l.amount),
    }),
  ),
  subtotal: Number(i.subtotal),
  total: Number(i.total),
  customerEmail: stringOrNull(i.customerEmail),
  idempotencyKey: stringOrNull(i.idempotencyKey),
  createdAt: i.createdAt as string,
  paidAt: stringOrNull(i.paidAt),
  transactionId: stringOrNull(i.transactionId),
  ...(typeof i.invoiceId === 'string' ? { invoiceId: i.invoiceId } : {}),
  ...(i.includedTaxMinor === undefined ? {} : { includedTaxMinor: Number(i.includedTaxMinor) }),
});

/** Create: the id must be new (an order is never overwritten). */
export const putNewOrder = (o: Order): TransactItem => ({
  Put: { TableName: tableName(), Item: toItem(o), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** The order `id`, whoever it belongs to, or null. */
export async function getOrderById(id: string): Promise<Order | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.order(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}

/** The order `id` of `merchantId`, or null (also for another merchant's order). */
export async function getOrder(merchantId: string, id: string): Promise<Order | null> {
  const order = await getOrderById(id);
  return order && order.merchantId === merchantId ? order : null;
}
