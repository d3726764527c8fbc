/**
 * Plan checkout sessions (`CHECKOUTSESSION#<id>` / `CHECKOUTSESSION`): what a buyer started paying — the plan, the
 * e-mail, the quantity, the billing address — until it expires or is paid. A session is paid once, through the
 * payment lock it shares with orders (shared/platform/db/payment-locks.ts). DynamoDB's TTL removes it a day after it
 * expired unpaid.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, putFresh } from '../platform/db/client.ts';
import { type CheckoutSession, checkoutSession, CheckoutSessionEntity } from './checkout-session.entity.ts';

/** Create: the id is new. */
export async function putNewCheckoutSession(s: CheckoutSession): Promise<void> {
  await putFresh(CheckoutSessionEntity.item(s));
}

/** The session `id`, or null. */
export async function getCheckoutSession(id: string): Promise<CheckoutSession | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: checkoutSession(id), ConsistentRead: true }));
  return CheckoutSessionEntity.parseOrNull(Item);
}
