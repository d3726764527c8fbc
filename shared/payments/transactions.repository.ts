/**
 * Transactions of an organization (catalog records: `TRANSACTION#<id>` / `TRANSACTION`, listed through gsi1 by
 * creation and gsi2 by last update under `TRANSACTIONS#<orgId>[#<shard>]`, 8 shards). A transaction is written `sending` together with
 * its idempotency claim, before the processor is called, and settled once (`settleTransaction`, conditional on
 * its status) in the transaction that records the processor's answer. It keeps the card's brand, last four digits
 * and expiry and the processor's reference of the card — never a card number.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { batchReadMany } from '../platform/db/batch-read.ts';
import * as v from 'valibot';
import { ExternalTransactionEntity } from './external-transaction.entity.ts';
import { searchTextOf, sortFieldsSchema, type Transaction, TransactionEntity, unsettled } from './transaction.entity.ts';
import type { CombinedStatus, SortableTransaction } from './transactions.rules.ts';
import { isTransactionId } from './transactions.rules.ts';
import { db, queryAll, tableName } from '../platform/db/client.ts';
import { catalogListing, catalogPartitions } from '../platform/db/keys.ts';
import { listCatalogItems, listCatalogPage, listOfCustomer, listOfSubscription, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';

/**
 * A new transaction (`sending`), for the transaction of its idempotency claim, on the unsettled index until it is
 * settled; the id is new, so the condition only guards a collision.
 */
export function putNewTransaction(t: Transaction): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...TransactionEntity.item(t), ...unsettled('charge', t.id, t.createdAt) },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * Records the processor's answer on `t` (the transaction as it becomes: status, processor id, decline reason,
 * processedAt, updatedAt), on the condition that it is still `from`; it leaves the unsettled index.
 */
export function settleTransaction(t: Transaction, from: CombinedStatus): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: TransactionEntity.key(t),
      UpdateExpression:
        'SET #status = :to, processedAt = :at, updatedAt = :at, gsi2sk = :gsi2sk, searchText = :search' +
        (t.externalTransactionId ? ', externalTransactionId = :ext' : '') +
        (t.declineReason ? ', declineReason = :decline' : '') +
        ' REMOVE gsi3pk, gsi3sk',
      ConditionExpression: 'attribute_exists(pk) AND organizationId = :org AND #status = :from',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':to': t.status,
        ':at': t.updatedAt,
        ':org': t.organizationId,
        ':from': from,
        ':search': searchTextOf(t),
        ':gsi2sk': catalogListing('TRANSACTION', t.organizationId, t.id, t.createdAt, t.updatedAt).gsi2sk,
        ...(t.externalTransactionId ? { ':ext': t.externalTransactionId } : {}),
        ...(t.declineReason ? { ':decline': t.declineReason } : {}),
      },
    },
  };
}

// Refunds (rules in shared/payments/refunds.rules.ts)

/**
 * Reserves `amountMinor` of the transaction's refundable amount for a new refund: `refundedMinor` grows by it, on
 * the condition that the transaction is the organization's, is in a refundable status and keeps its refunds
 * within its amount (DynamoDB conditions cannot add, so the bound is `refundedMinor <= amount - this refund`).
 */
export function reserveRefund(t: Transaction, amountMinor: number, refundableStatuses: readonly CombinedStatus[], at: string, takenMinor = 0): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: TransactionEntity.key(t),
      UpdateExpression: 'SET refundedMinor = if_not_exists(refundedMinor, :zero) + :r, refundUpdatedAt = :at',
      ConditionExpression:
        `attribute_exists(pk) AND organizationId = :org AND #status IN (${refundableStatuses.map((_, n) => `:s${n}`).join(', ')})` +
        ' AND (attribute_not_exists(refundedMinor) OR refundedMinor <= :maxBefore)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':zero': 0,
        ':r': amountMinor,
        ':at': at,
        ':org': t.organizationId,
        // What a decided dispute took of the payment no refund gives back (`takenMinor`).
        ':maxBefore': t.amountMinor - takenMinor - amountMinor,
        ...Object.fromEntries(refundableStatuses.map((st, n) => [`:s${n}`, st])),
      },
    },
  };
}

/** Gives a failed refund's reservation back (unconditional but for the transaction's existence: the refund's own write guards it). */
export function releaseRefundReservation(transactionId: string, amountMinor: number, at: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: TransactionEntity.key({ id: transactionId }),
      UpdateExpression: 'ADD refundedMinor :minus SET refundUpdatedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':minus': -amountMinor, ':at': at },
    },
  };
}

/**
 * Records a refund of `refundMinor` that reached `refunded` on its transaction `t` (as read): the refunded total grows
 * by it (`ADD`), `updatedAt` moves on and the status becomes `to` (null: it stays). The condition is what the
 * settlement was decided on: the refunded total exactly as read (the refund journal's share of the tax is taken from
 * it, so the refunds of a payment give back all of its tax and never more), and a status in `movesFrom` (for a status
 * that stays, still `t.status`). When it fails (another refund settled meanwhile, the status changed), the caller
 * reads again: refunds of one payment settling at once land one after the other.
 */
export function settleRefundOnTransaction(
  t: Transaction,
  refundMinor: number,
  to: CombinedStatus | null,
  movesFrom: readonly CombinedStatus[],
  at: string,
): TransactItem {
  const settled = t.refundSettledMinor ?? 0;
  if (settled + refundMinor > t.amountMinor) throw new Error(`Refunds of ${t.id} would settle more than it paid`);
  // Exactly the refunded total read: the refund journal's tax share is taken from it.
  const exact = settled === 0 ? '(attribute_not_exists(refundSettledMinor) OR refundSettledMinor = :settled)' : 'refundSettledMinor = :settled';
  const status = to === null ? '#status = :from' : `#status IN (${movesFrom.map((_, n) => `:from${n}`).join(', ')})`;
  const condition = `${status} AND ${exact}`;
  return {
    Update: {
      TableName: tableName(),
      Key: TransactionEntity.key(t),
      UpdateExpression: `SET updatedAt = :at, gsi2sk = :gsi2sk${to ? ', #status = :to' : ''} ADD refundSettledMinor :refund`,
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':refund': refundMinor,
        ':at': at,
        ':gsi2sk': catalogListing('TRANSACTION', t.organizationId, t.id, t.createdAt, at).gsi2sk,
        ':settled': settled,
        ...(to === null ? { ':from': t.status } : { ':to': to, ...Object.fromEntries(movesFrom.map((st, n) => [`:from${n}`, st])) }),
      },
    },
  };
}

/**
 * The pointer from the processor's id of a charge (`pay_…`) to its transaction, written when the answer is
 * recorded: receipts still accept those ids (docs/reference-checkout.md, "Receipts"). Unconditional: every attempt of one charge
 * names the same transaction.
 */
export function putExternalReference(t: Transaction): TransactItem {
  if (!t.externalTransactionId) throw new Error('A transaction without a processor id has no external reference');
  return {
    Put: {
      TableName: tableName(),
      Item: ExternalTransactionEntity.item({ externalTransactionId: t.externalTransactionId, organizationId: t.organizationId, transactionId: t.id }),
    },
  };
}

/** The transaction the processor's charge id `externalId` belongs to, whatever its organization; null when none. */
export async function getTransactionByExternalId(externalId: string): Promise<Transaction | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: ExternalTransactionEntity.key({ externalTransactionId: externalId }) }));
  const pointer = ExternalTransactionEntity.parseOrNull(Item);
  return pointer && getTransaction(pointer.organizationId, pointer.transactionId);
}

/** The transaction `id`, whatever its organization (checkout receipts check what it paid instead); null when none. */
export async function getTransactionById(id: string): Promise<Transaction | null> {
  if (!isTransactionId(id)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: TransactionEntity.key({ id }) }));
  return TransactionEntity.parseOrNull(Item);
}

/**
 * The transaction a processor reference names, whatever its organization: the platform's id (UUID v7) or the
 * processor's charge id (`pay_…`); null when none.
 */
export async function getTransactionByReference(reference: string): Promise<Transaction | null> {
  return isTransactionId(reference) ? getTransactionById(reference) : getTransactionByExternalId(reference);
}

/** The organization's transaction `id`; null for unknown, malformed and other organizations' ids. */
export async function getTransaction(organizationId: string, id: string): Promise<Transaction | null> {
  if (!isTransactionId(id)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: TransactionEntity.key({ id }), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? TransactionEntity.parse(Item) : null;
}

/** Filters of a transaction list (all optional but `showTestData`). */
export interface TransactionFilter {
  statuses?: readonly CombinedStatus[] | undefined;
  paymentMethods?: readonly string[] | undefined;
  /** Lowercased substring of the id, description, customer name or e-mail, or the processor's id. */
  search?: string | undefined;
  /** False: test data is left out. */
  showTestData: boolean;
  subscriptionId?: string | undefined;
  customerId?: string | undefined;
}

/** The DynamoDB filter of `f` (placeholders never start with `:r`/`#r`, which the listing keeps for itself). */
function filterOf(f: TransactionFilter): CatalogListOptions['filter'] {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const anyOf = (attribute: string, tag: string, list: readonly string[]) => {
    names[`#${tag}`] = attribute;
    const placeholders = list.map((x, n) => {
      values[`:${tag}${n}`] = x;
      return `:${tag}${n}`;
    });
    parts.push(`#${tag} IN (${placeholders.join(', ')})`);
  };
  if (f.statuses?.length) anyOf('status', 'st', f.statuses);
  if (f.paymentMethods?.length) anyOf('paymentMethod', 'pm', f.paymentMethods);
  if (f.search) {
    parts.push('contains(searchText, :q)');
    values[':q'] = f.search;
  }
  if (!f.showTestData) {
    parts.push('isTestData = :false');
    values[':false'] = false;
  }
  if (f.subscriptionId) {
    parts.push('subscriptionId = :sub');
    values[':sub'] = f.subscriptionId;
  }
  if (f.customerId) {
    parts.push('customerId = :cus');
    values[':cus'] = f.customerId;
  }
  if (!parts.length) return undefined;
  return { expression: parts.join(' AND '), ...(Object.keys(names).length ? { names } : {}), values };
}

/** One offset page sorted by creation (gsi1) or last update (gsi2), with the total count (see shared/platform/db/listing.ts). */
export async function listTransactionsPage(organizationId: string, options: Omit<CatalogListOptions, 'filter'>, filter: TransactionFilter) {
  const f = filterOf(filter);
  const page = await listCatalogPage('TRANSACTION', organizationId, { ...options, ...(f ? { filter: f } : {}) });
  return { totalCount: page.totalCount, items: page.items.map(TransactionEntity.parse) };
}

/** The `limit` newest transactions of the organization's customer `customerId` that pass `filter` (its partition of gsi4). */
export async function listTransactionsOfCustomer(organizationId: string, customerId: string, limit: number, filter: TransactionFilter): Promise<Transaction[]> {
  return (await listOfCustomer('TRANSACTION', organizationId, customerId, limit, filterOf(filter))).map(TransactionEntity.parse);
}

/**
 * The `limit` newest transactions of the organization's subscription `subscriptionId` that pass `filter` (its partition
 * of gsi5).
 */
export async function listTransactionsOfSubscription(
  organizationId: string,
  subscriptionId: string,
  limit: number,
  filter: TransactionFilter,
): Promise<Transaction[]> {
  return (await listOfSubscription('TRANSACTION', organizationId, subscriptionId, limit, filterOf(filter))).map(TransactionEntity.parse);
}

/** The transactions of one page, without their total count (`listCatalogItems`: a reader that shows none). */
export async function listTransactionItems(
  organizationId: string,
  options: Omit<CatalogListOptions, 'filter'>,
  filter: TransactionFilter,
): Promise<Transaction[]> {
  const f = filterOf(filter);
  return (await listCatalogItems('TRANSACTION', organizationId, { ...options, ...(f ? { filter: f } : {}) })).map(TransactionEntity.parse);
}

/** What an in-memory sort reads of every matching transaction (a projection: the rest is not transferred). */
export type TransactionSortFields = SortableTransaction;

const sortFields = ['id', 'createdAt', 'description', 'customerName', 'processedAt', 'paymentType', 'gatewayName'] as const;

/**
 * The sort fields of every transaction of the organization that matches `filter` (a Query of its gsi1 partition
 * with the filter applied by DynamoDB and a projection), or `too_many` as soon as more than `max` match.
 */
export async function listTransactionSortFields(organizationId: string, filter: TransactionFilter, max: number): Promise<TransactionSortFields[] | 'too_many'> {
  const f = filterOf(filter);
  const out: TransactionSortFields[] = [];
  for (const partition of catalogPartitions('TRANSACTION', organizationId)) {
    // No page is read once the matches so far are more than `max`.
    const items = await queryAll(
      {
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ...(f ? { FilterExpression: f.expression } : {}),
        ProjectionExpression: sortFields.map((_, n) => `#p${n}`).join(', '),
        ExpressionAttributeNames: { ...Object.fromEntries(sortFields.map((a, n) => [`#p${n}`, a])), ...f?.names },
        ExpressionAttributeValues: { ':pk': partition, ...f?.values },
      },
      max + 1 - out.length,
    );
    for (const i of items) out.push(v.parse(sortFieldsSchema, i));
    if (out.length > max) return 'too_many';
  }
  return out;
}

/**
 * The transactions `ids` (one `BatchGetItem` a hundred, eventually consistent: the ids come from a list), in the
 * order of `ids`; missing ones left out.
 */
export async function getTransactions(ids: readonly string[]): Promise<Transaction[]> {
  const read = await batchReadMany(
    ids.map((id) => ({ key: TransactionEntity.key({ id }), from: TransactionEntity.parse })),
    { consistent: false },
  );
  return read.filter((t): t is Transaction => t !== null);
}
