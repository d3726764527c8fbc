/**
 * Orders. Each order is its own partition `ORDER#<id>` (buyer checkout reads an order by id alone); the
 * record's `merchantId` is checked on every merchant read. An order is written once, on the condition that its
 * id is new, and never updated. Amounts are integer minor units of the order's currency.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Order } from './orders.rules.ts';
import { db, tableName } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { paymentRefusalOf } from '../platform/db/payment-locks.ts';
import { order, OrderEntity } from './order.entity.ts';

/** Create: the id must be new (an order is never overwritten). */
export const putNewOrder = (o: Order): TransactItem => ({
  Put: { TableName: tableName(), Item: OrderEntity.item(o), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** The order `id`, whoever it belongs to, or null. */
export async function getOrderById(id: string): Promise<Order | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: order(id), ConsistentRead: true }));
  const found = OrderEntity.parseOrNull(Item);
  return found && found.status === 'open' && paymentRefusalOf(Item) === 'closed' ? { ...found, closed: true } : found;
}

/** The order `id` of `merchantId`, or null (also for another merchant's order). */
export async function getOrder(merchantId: string, id: string): Promise<Order | null> {
  const found = await getOrderById(id);
  return found && found.merchantId === merchantId ? found : null;
}
