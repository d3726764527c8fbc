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
import type { SellerOfRecord } from '../platform/config.ts';
import { db, nextInCounter, tableName } from '../platform/db/client.ts';
import { stringOrNull } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import type { TransactItem } from '../platform/db/types.ts';

/** What a receipt shows of the seller, fixed when the buyer paid. */
export interface ReceiptSeller {
  /** The name the checkout showed the buyer (the merchant's display name). */
  merchantName: string;
  /** The platform, which sells as merchant of record. */
  sellerOfRecord: SellerOfRecord;
}

/** A receipt as stored; the seller is absent on receipts of payments claimed before receipts kept it. */
export interface ReceiptRecord {
  transactionId: string;
  organizationId: string;
  seller: ReceiptSeller | null;
  /** The organization's receipt number (1, 2, …), set when the payment completed; null until then. */
  number: number | null;
}

const entity = 'receipt';

/** The receipt of a payment being claimed (the transaction `transactionId` is new, so is its receipt). */
export const putClaimedReceipt = (transactionId: string, organizationId: string, seller: ReceiptSeller, now: string): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.receipt(transactionId), entity, transactionId, organizationId, seller, createdAt: now },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** Takes the organization's next receipt number: one atomic increment (see the top), never refused. */
export const takeReceiptNumber = (organizationId: string): Promise<number> => nextInCounter(keys.receiptCounter(organizationId));

/**
 * The items that give the receipt of `transactionId` the number `n`, for the settlement's transaction: the number's
 * own item (refused if the number was ever given) and the receipt numbered (refused if it already has a number; made
 * when its claim wrote none).
 */
export const numberReceipt = (transactionId: string, organizationId: string, n: number, at: string): TransactItem[] => [
  {
    Put: {
      TableName: tableName(),
      Item: { ...keys.receiptNumber(organizationId, n), entity: 'receiptNumber', organizationId, number: n, transactionId, createdAt: at },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  {
    Update: {
      TableName: tableName(),
      Key: keys.receipt(transactionId),
      UpdateExpression: 'SET #number = :n, numberedAt = :at, entity = :entity, transactionId = :tx, organizationId = :org',
      ConditionExpression: 'attribute_not_exists(#number)',
      ExpressionAttributeNames: { '#number': 'number' },
      ExpressionAttributeValues: { ':n': n, ':at': at, ':entity': entity, ':tx': transactionId, ':org': organizationId },
    },
  },
];

function sellerOf(raw: unknown): ReceiptSeller | null {
  if (!raw || typeof raw !== 'object') return null;
  const s = raw as { merchantName?: unknown; sellerOfRecord?: Record<string, unknown> };
  const r = s.sellerOfRecord;
  const tax = r?.taxNumber as { type?: unknown; value?: unknown } | undefined;
  if (typeof s.merchantName !== 'string' || !r || !tax) return null;
  return {
    merchantName: s.merchantName,
    sellerOfRecord: {
      name: String(r.name),
      address: String(r.address),
      city: String(r.city),
      zip: stringOrNull(r.zip),
      state: stringOrNull(r.state),
      country: String(r.country),
      phoneNumber: stringOrNull(r.phoneNumber),
      taxNumber: { type: String(tax.type), value: String(tax.value) },
    },
  };
}

/** The receipt of the transaction `transactionId`, or null (strongly consistent: it is read right after paying). */
export async function getReceipt(transactionId: string): Promise<ReceiptRecord | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.receipt(transactionId), ConsistentRead: true }));
  if (!Item) return null;
  return {
    transactionId: Item.transactionId as string,
    organizationId: Item.organizationId as string,
    seller: sellerOf(Item.seller),
    number: Item.number === undefined ? null : Number(Item.number),
  };
}
