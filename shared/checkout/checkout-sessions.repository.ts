/**
 * Plan checkout sessions (`CHECKOUTSESSION#<id>` / `CHECKOUTSESSION`): what a buyer started paying — the plan, the
 * e-mail, the quantity, the billing address — until it expires or is paid. A session is paid once, through the
 * payment lock it shares with orders (shared/platform/db/payment-locks.ts). DynamoDB's TTL removes it a day after it
 * expired unpaid.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../platform/db/client.ts';
import { stringOrNull, withoutNulls } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';

export interface CheckoutSession {
  id: string;
  merchantId: string;
  planId: string;
  status: 'open' | 'paid';
  email: string;
  quantity: number;
  billingAddress: { country: string; state: string | null; postalCode: string | null };
  currency: string;
  expiresAt: string;
  createdAt: string;
  paidAt: string | null;
  transactionId: string | null;
}

const DAY_SECONDS = 86_400;

const toItem = (s: CheckoutSession) => ({
  ...keys.checkoutSession(s.id),
  entity: 'checkoutSession',
  ...withoutNulls({ ...s, billingAddress: withoutNulls(s.billingAddress) }),
  ttl: Math.ceil(Date.parse(s.expiresAt) / 1000) + DAY_SECONDS,
});

const fromItem = (i: Record<string, unknown>): CheckoutSession => {
  const a = i.billingAddress as Record<string, unknown>;
  return {
    id: i.id as string,
    merchantId: i.merchantId as string,
    planId: i.planId as string,
    status: i.status as CheckoutSession['status'],
    email: i.email as string,
    quantity: Number(i.quantity),
    billingAddress: { country: a.country as string, state: stringOrNull(a.state), postalCode: stringOrNull(a.postalCode) },
    currency: i.currency as string,
    expiresAt: i.expiresAt as string,
    createdAt: i.createdAt as string,
    paidAt: stringOrNull(i.paidAt),
    transactionId: stringOrNull(i.transactionId),
  };
};

/** Create: the id is new. */
export async function putNewCheckoutSession(s: CheckoutSession): Promise<void> {
  await db.send(new PutCommand({ TableName: tableName(), Item: toItem(s), ConditionExpression: 'attribute_not_exists(pk)' }));
}

/** The session `id`, or null. */
export async function getCheckoutSession(id: string): Promise<CheckoutSession | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.checkoutSession(id), ConsistentRead: true }));
  return Item ? fromItem(Item) : null;
}
