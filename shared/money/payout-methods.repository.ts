/**
 * Payout methods `MERCHANT#<merchantId>` / `PAYOUTMETHOD#<id>`, listed by a Query of the merchant's partition.
 * The merchant item counts them (`payoutMethodCount`, people's merchants repository) in the same transaction as the
 * method, under a condition on the count.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { PayoutMethod } from './payouts.rules.ts';
import { db, queryAll, tableName } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { PayoutMethodEntity, payoutMethodsOf } from './payout-method.entity.ts';

/** A new method, written once. */
export const putNewPayoutMethod = (m: PayoutMethod): TransactItem => ({
  Put: { TableName: tableName(), Item: PayoutMethodEntity.item(m), ConditionExpression: 'attribute_not_exists(pk)' },
});

/** Removes a method (it must still be there). */
export const deletePayoutMethodItem = (merchantId: string, id: string): TransactItem => ({
  Delete: { TableName: tableName(), Key: PayoutMethodEntity.key({ merchantId, id }), ConditionExpression: 'attribute_exists(pk)' },
});

/** For a payout's transaction: the method is still there. */
export const payoutMethodExists = (merchantId: string, id: string): TransactItem => ({
  ConditionCheck: { TableName: tableName(), Key: PayoutMethodEntity.key({ merchantId, id }), ConditionExpression: 'attribute_exists(pk)' },
});

export async function getPayoutMethod(merchantId: string, id: string): Promise<PayoutMethod | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: PayoutMethodEntity.key({ merchantId, id }), ConsistentRead: true }));
  return PayoutMethodEntity.parseOrNull(Item);
}

/** Every method of the merchant, newest first: one Query of its partition's `PAYOUTMETHOD#` items. */
export async function listPayoutMethods(merchantId: string): Promise<PayoutMethod[]> {
  const k = payoutMethodsOf(merchantId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': k.pk, ':prefix': k.skPrefix },
    ConsistentRead: true,
  });
  return items.map(PayoutMethodEntity.parse).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}
