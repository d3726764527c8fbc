/**
 * The payment lock of something a checkout pays once — an order or a plan checkout session, each its own item
 * with `status` `open` → `paid`. A confirm's claim takes the lock (`payingTransactionId`, only while the item is
 * open, unexpired when it has an `expiresAt`, and not being paid); of concurrent confirms one takes it and the
 * others are refused (`paymentRefusalOf` says why). The payment's settlement marks the item paid, or opens it
 * again after a decline or error, on the condition that the lock is still this payment's. A session with nothing
 * to charge is marked paid at once (`payWithoutCharge`), on the lock's conditions.
 */
import { tableName } from './client.ts';
import type { TransactItem } from './types.ts';

type ItemKey = { pk: string; sk: string };

/** The key of an order, a payable of its own (the checkout module's order entity keys its items with it). */
export const payableOrder = (orderId: string): ItemKey => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' });

/** The key of a plan checkout session, a payable of its own (the checkout session entity keys its items with it). */
export const payableSession = (sessionId: string): ItemKey => ({ pk: `CHECKOUTSESSION#${sessionId}`, sk: 'CHECKOUTSESSION' });

/** Takes the lock of `key` for `transactionId`; `now` also requires the item unexpired (`expiresAt > now`). */
export const lockForPayment = (key: ItemKey, transactionId: string, now?: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'SET payingTransactionId = :tx',
    ConditionExpression: `attribute_exists(pk) AND #status = :open${now === undefined ? '' : ' AND expiresAt > :now'} AND attribute_not_exists(payingTransactionId)`,
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':tx': transactionId, ':open': 'open', ...(now === undefined ? {} : { ':now': now }) },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});

/**
 * Marks `key` paid at `paidAt` with nothing charged (a trial started at checkout, in the one transaction that
 * starts it): on the lock's conditions (open, unexpired at `now`, not being paid), so it is refused as a lock is.
 */
export const payWithoutCharge = (key: ItemKey, paidAt: string, now: string): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'SET #status = :paid, paidAt = :at REMOVE #ttl',
    ConditionExpression: 'attribute_exists(pk) AND #status = :open AND expiresAt > :now AND attribute_not_exists(payingTransactionId)',
    ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' },
    ExpressionAttributeValues: { ':paid': 'paid', ':open': 'open', ':at': paidAt, ':now': now },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});

/**
 * The settlement of the locked payment: paid by `transactionId` at `paidAt` (success; a paid item keeps no TTL),
 * or open again when `paidAt` is null (decline or error).
 */
export const settlePayment = (key: ItemKey, transactionId: string, paidAt: string | null): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: key,
    UpdateExpression: paidAt ? 'SET #status = :paid, paidAt = :at, transactionId = :tx REMOVE payingTransactionId, #ttl' : 'REMOVE payingTransactionId',
    ConditionExpression: 'payingTransactionId = :tx',
    ...(paidAt ? { ExpressionAttributeNames: { '#status': 'status', '#ttl': 'ttl' } } : {}),
    ExpressionAttributeValues: { ':tx': transactionId, ...(paidAt ? { ':paid': 'paid', ':at': paidAt } : {}) },
  },
});

/** The lock a closed invoice takes on its order for good (`voided:<invoiceId>`, `uncollectible:…`): nothing pays it again. */
const CLOSED_LOCK = /^(voided|uncollectible):/;

/**
 * Why a payment lock was refused, from the item as it was (`cancelledPartItem`): paid already, being paid, or closed
 * for good (an order whose invoice was closed).
 */
export function paymentRefusalOf(old: Record<string, unknown> | undefined): 'paid' | 'paying' | 'closed' | 'missing' {
  if (!old) return 'missing';
  if (old.status === 'paid') return 'paid';
  return typeof old.payingTransactionId === 'string' && CLOSED_LOCK.test(old.payingTransactionId) ? 'closed' : 'paying';
}

/** Takes the lock of the order `orderId` for good: the invoice `invoiceId` it pays was closed (`how`). */
export const closeForPayment = (orderId: string, how: 'voided' | 'uncollectible', invoiceId: string): TransactItem =>
  lockForPayment(payableOrder(orderId), `${how}:${invoiceId}`);
