/**
 * Receipts of checkout payments: one item beside each payment's transaction (`TRANSACTION#<id>` / `RECEIPT`), and
 * the organization's receipt numbers.
 *
 * - The payment's claim writes the receipt with what the buyer was shown of the seller: the checkout's display name
 *   and the platform as seller of record (its legal name, address and tax number), as they were then.
 * - The settlement of a completed payment numbers it, in the settlement's own transaction: the number comes from
 *   one atomic increment of the organization's counter (`MERCHANT#<orgId>` / `RECEIPTNUMBER`, `ADD`: never a read
 *   then a write, so two payments never get the same number), and the same transaction writes the number's own item
 *   (`RECEIPTNUMBER#<n>`, `attribute_not_exists`) and sets it on the receipt. A declined payment takes no number; a
 *   settlement that does not land (another worker settled the payment first) leaves its number unused.
 *
 * The counter is one item per organization: every completed checkout payment of the organization increments it,
 * so at very high volume (a few hundred payments a second for one organization, DynamoDB's per-item write rate) it
 * becomes a hot item; spreading such writes is the business of the hot-item work, not of this file.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, nextInCounter, tableName } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { receipt, receiptCounter, ReceiptEntity, receiptNumber, type ReceiptRecord, type ReceiptSeller } from './receipt.entity.ts';

/** The receipt of a payment being claimed (the transaction `transactionId` is new, so is its receipt). */
export const putClaimedReceipt = (transactionId: string, organizationId: string, seller: ReceiptSeller, now: string): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...ReceiptEntity.item({ transactionId, organizationId, seller, number: null }), createdAt: now },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** Takes the organization's next receipt number: one atomic increment (see the top), never refused. */
export const takeReceiptNumber = (organizationId: string): Promise<number> => nextInCounter(receiptCounter(organizationId));

/**
 * The items that give the receipt of `transactionId` the number `n`, for the settlement's transaction: the number's
 * own item (refused if the number was ever given) and the receipt numbered (refused if it already has a number; made
 * when its claim wrote none).
 */
export const numberReceipt = (transactionId: string, organizationId: string, n: number, at: string): TransactItem[] => [
  {
    Put: {
      TableName: tableName(),
      Item: { ...receiptNumber(organizationId, n), entity: 'receiptNumber', organizationId, number: n, transactionId, createdAt: at },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  {
    Update: {
      TableName: tableName(),
      Key: receipt(transactionId),
      UpdateExpression: 'SET #number = :n, numberedAt = :at, entity = :entity, transactionId = :tx, organizationId = :org',
      ConditionExpression: 'attribute_not_exists(#number)',
      ExpressionAttributeNames: { '#number': 'number' },
      ExpressionAttributeValues: { ':n': n, ':at': at, ':entity': ReceiptEntity.kind, ':tx': transactionId, ':org': organizationId },
    },
  },
];

/** The receipt of the transaction `transactionId`, or null (strongly consistent: it is read right after paying). */
export async function getReceipt(transactionId: string): Promise<ReceiptRecord | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: receipt(transactionId), ConsistentRead: true }));
  return ReceiptEntity.parseOrNull(Item);
}
