/**
 * Refunds (rules in shared/payments/refunds.rules.ts): `TRANSACTION#<transactionId>` / `REFUND#<refundId>`, in their
 * transaction's partition, so a transaction's refunds are one Query (ids are UUID v7: the sort key orders them
 * by creation). A refund is written once, `pending`, in the transaction that reserves its amount on the
 * transaction item, and settled once (conditional on still being `pending`).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { RefundEntity, refundsOf } from './refund.entity.ts';
import type { Refund, RefundFailure } from './refunds.rules.ts';
import { unsettled } from './transaction.entity.ts';
import { db, queryAll, tableName } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';

/** A new refund (`pending`), for the transaction that reserves its amount; on the unsettled index until it is settled. */
export function putNewRefund(r: Refund): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...RefundEntity.item(r), ...unsettled('refund', r.id, r.createdAt) },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * Settles `r` (as it becomes: `refunded` with the processor's id, or `failed` with why), once: it must still be
 * pending. It leaves the unsettled index.
 */
export function settleRefund(r: Refund): TransactItem {
  const failure: RefundFailure | null = r.failure;
  return {
    Update: {
      TableName: tableName(),
      Key: RefundEntity.key(r),
      UpdateExpression:
        'SET #status = :to, processedAt = :at, updatedAt = :at' +
        (r.externalRefundId ? ', externalRefundId = :ext' : '') +
        (failure ? ', failure = :failure' : '') +
        ' REMOVE gsi3pk, gsi3sk',
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':to': r.status,
        ':at': r.updatedAt,
        ':pending': 'pending',
        ...(r.externalRefundId ? { ':ext': r.externalRefundId } : {}),
        ...(failure ? { ':failure': failure } : {}),
      },
    },
  };
}

/** The refund `refundId` of the transaction, or null. */
export async function getRefund(transactionId: string, refundId: string): Promise<Refund | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: RefundEntity.key({ transactionId, id: refundId }), ConsistentRead: true }));
  return RefundEntity.parseOrNull(Item);
}

/** Every refund of the transaction, oldest first (one Query of its partition). */
export async function listRefunds(transactionId: string): Promise<Refund[]> {
  const k = refundsOf(transactionId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': k.pk, ':prefix': k.skPrefix },
    ConsistentRead: true,
  });
  return items.map(RefundEntity.parse);
}
