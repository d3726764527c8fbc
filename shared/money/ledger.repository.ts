/**
 * The ledger's items (rules in shared/money/ledger.rules.ts):
 * - journals `JOURNAL#<id>` / `JOURNAL`, listed per merchant through gsi1 (`JOURNALS#<merchantId>[#<shard>]`, by creation).
 *   Append-only: written once (`attribute_not_exists`, and the id is deterministic per business event, so an event
 *   can never be booked twice); this module has no update or delete of a journal.
 * - balances `MERCHANT#<id>` / `BALANCE#<currency>`: each merchant account's balance, changed only by `ADD` in the
 *   same transaction as the journal that moves it (so with its shards it always equals the sum of the journals'
 *   entries), with a condition whenever the change depends on what was read (available covering a payout, the owed
 *   amount a release repays). Its shards `BALANCESHARD#<id>#<currency>#<n>` take the pending funds of payments once
 *   the currency is sharded (one in turn per process, from a random one); a balance read sums the item and its
 *   shards, and the item alone (`getConditionBalance`) is what every condition is on.
 * - pending funds `PENDINGFUNDS#<transactionId>` / `PENDINGFUNDS`: a payment's net while it is held, on the
 *   release index (gsi2 `RELEASES#<shard>` / `<releaseAt>#<transactionId>`, removed when released: a sparse index
 *   the release job reads). Because the partition does not depend on the due time and the sort key starts with
 *   it, one Query per shard bounded by `gsi2sk <= <asOf>#~` reaches every item due by `asOf`, however long ago
 *   it fell due, oldest first; there is no look-back window to fall out of.
 *
 *   Why shards (`RELEASE_SHARDS`, 8, from a hash of the transaction id) rather than one `RELEASES` partition: every
 *   payment writes this index inside its own transaction, and a GSI partition takes about 1,000 writes a second; a
 *   throttled GSI throttles the base-table write, so the payment itself would fail. Its sort key grows with time,
 *   so DynamoDB cannot split the partition for heat either (every write lands at its end). Eight shards lift that
 *   ceiling to about 8,000 payments a second (releases remove entries at the job's pace, well below that) for the
 *   price of eight Queries per run instead of one. The operator's one-merchant release filters those Queries by
 *   `merchantId` (a FilterExpression, not a key): it reads what is due for everyone, which the hourly job keeps to
 *   about an hour's payments on live (where `--as-of` may not be later than now), and a per-merchant key would
 *   add an index write to every payment and every release for a command run by hand.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Journal, MerchantBalances } from './ledger.rules.ts';
import { zeroBalances } from './ledger.rules.ts';
import { db, queryAll, tableName } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { randomInt } from 'node:crypto';
import { batchReadMany } from '../platform/db/batch-read.ts';
import { queryGsi1Shards } from '../platform/db/listing.ts';
import { BALANCE_SHARDS, BalanceEntity, balanceItemsOf, BalanceShardEntity, merchantBalances } from './balance.entity.ts';
import { JournalEntity, journalPartitions } from './journal.entity.ts';
import { type PendingFunds, PendingFundsEntity, RELEASE_SHARDS, releasesOf } from './pending-funds.entity.ts';

const balanceFields = ['pending', 'available', 'reserved', 'inTransit', 'owed', 'paidOut'] as const;

/** A journal, written once. */
export function putJournal(j: Journal): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: JournalEntity.item(j),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** What a balance change requires of the balance as it is (each optional). */
export interface BalanceCondition {
  /** Available must be at least this (a payout, a debit that takes this much from available). */
  availableAtLeast?: number;
  /** Available must be exactly this (a debit that took all of it, the rest owed: see `bookDebit`). */
  availableEquals?: number;
  /** Owed must be exactly this (a release or won dispute that repays it). */
  owedEquals?: number;
}

/** Adds `delta` to the merchant's balance in `currency` (created at zero when new), under `condition`. */
export function applyBalance(merchantId: string, currency: string, delta: MerchantBalances, at: string, condition: BalanceCondition = {}): TransactItem {
  const adds = balanceFields.filter((f) => delta[f] !== 0);
  const values: Record<string, unknown> = { ':at': at, ':merchant': merchantId, ':currency': currency, ':entity': BalanceEntity.kind };
  for (const f of adds) values[`:${f}`] = delta[f];
  const conditions: string[] = [];
  if (condition.availableAtLeast) {
    conditions.push('available >= :minAvailable');
    values[':minAvailable'] = condition.availableAtLeast;
  }
  /** `field` equals `value`, a field the item does not have yet counting as 0. */
  const equals = (field: string, value: number | undefined) => {
    if (value === undefined) return;
    conditions.push(value ? `${field} = :${field}Was` : `(attribute_not_exists(${field}) OR ${field} = :${field}Was)`);
    values[`:${field}Was`] = value;
  };
  equals('available', condition.availableEquals);
  equals('owed', condition.owedEquals);
  return {
    Update: {
      TableName: tableName(),
      Key: BalanceEntity.key({ merchantId, currency }),
      UpdateExpression: `SET updatedAt = :at, merchantId = :merchant, currency = :currency, entity = :entity${adds.length ? ` ADD ${adds.map((f) => `${f} :${f}`).join(', ')}` : ''}`,
      ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

/** The next shard this process books pending funds into: each in turn, from a random one. */
let nextShard = randomInt(BALANCE_SHARDS);

/** Adds `pendingMinor` to the pending funds of a shard of the merchant's balance in `currency` (created when new). */
export function applyPendingToShard(merchantId: string, currency: string, pendingMinor: number, at: string): TransactItem {
  const shard = nextShard;
  nextShard = (nextShard + 1) % BALANCE_SHARDS;
  return {
    Update: {
      TableName: tableName(),
      Key: BalanceShardEntity.key({ merchantId, currency, shard }),
      UpdateExpression: 'SET updatedAt = :at, merchantId = :merchant, currency = :currency, #shard = :shard, entity = :entity ADD pending :pending',
      ExpressionAttributeNames: { '#shard': 'shard' },
      ExpressionAttributeValues: {
        ':at': at,
        ':merchant': merchantId,
        ':currency': currency,
        ':shard': shard,
        ':entity': BalanceShardEntity.kind,
        ':pending': pendingMinor,
      },
    },
  };
}

/** The pending funds in the shards of the merchant's balance in `currency`: two `BatchGetItem`s at once. */
async function shardedPending(merchantId: string, currency: string): Promise<number> {
  const reads = Array.from({ length: BALANCE_SHARDS }, (_, shard) => ({
    key: BalanceShardEntity.key({ merchantId, currency, shard }),
    from: (item: Record<string, unknown>) => BalanceShardEntity.parse(item).pending,
  }));
  return (await batchReadMany(reads)).reduce<number>((n, pending) => n + (pending ?? 0), 0);
}

/**
 * The merchant's balance item in `currency` alone (zero when it has none yet): every account but the pending funds
 * of payments booked into its shards. What a condition on the balance (available, owed) is decided on.
 */
export async function getConditionBalance(merchantId: string, currency: string): Promise<MerchantBalances> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: BalanceEntity.key({ merchantId, currency }), ConsistentRead: true }));
  const balance = BalanceEntity.parseOrNull(Item);
  return balance ? merchantBalances(balance) : zeroBalances();
}

/** The merchant's balances in `currency` (zero when it has none yet): its item and its shards' pending funds. */
export async function getBalance(merchantId: string, currency: string): Promise<MerchantBalances> {
  const [balance, pending] = await Promise.all([getConditionBalance(merchantId, currency), shardedPending(merchantId, currency)]);
  return { ...balance, pending: balance.pending + pending };
}

/**
 * Every currency the merchant has a balance in, with its balances: one Query of the merchant's partition (a balance
 * item exists for every currency: its first payment writes it) and, at the same time, the shards of the currencies
 * the merchant's record says are sharded (`shardedCurrencies`): one round trip. A sharded currency the record read
 * does not name yet (a record read before its first payment) has its shards read after the Query.
 */
export async function listBalances(
  merchantId: string,
  shardedCurrencies: readonly string[] = [],
): Promise<Array<{ currency: string; balances: MerchantBalances }>> {
  const k = balanceItemsOf(merchantId);
  const known = [...new Set(shardedCurrencies)];
  const [items, knownPending] = await Promise.all([
    queryAll({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': k.pk, ':prefix': k.skPrefix },
      ConsistentRead: true,
    }),
    Promise.all(known.map(async (currency) => [currency, await shardedPending(merchantId, currency)] as const)),
  ]);
  const pendingOf = new Map<string, number>(knownPending);
  const balances = await Promise.all(
    items.map(BalanceEntity.parse).map(async (b) => {
      const pending = pendingOf.get(b.currency) ?? (await shardedPending(merchantId, b.currency));
      return { currency: b.currency, balances: { ...merchantBalances(b), pending: b.pending + pending } };
    }),
  );
  return balances.sort((a, b) => a.currency.localeCompare(b.currency));
}

/** Every journal of the merchant, oldest first: each shard of its listing at once, merged. */
export async function listJournals(merchantId: string): Promise<Journal[]> {
  return (await queryGsi1Shards(journalPartitions(merchantId))).map(JournalEntity.parse);
}

// Pending funds

/** A payment's net, held until `releaseAt` (written with the payment's journal). */
export function putPendingFunds(p: PendingFunds): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: PendingFundsEntity.item(p),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Marks pending funds released (once: the condition is that they are still pending) and drops them from the index. */
export function markReleased(transactionId: string, at: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: PendingFundsEntity.key({ transactionId }),
      UpdateExpression: 'SET #status = :released, releasedAt = :at REMOVE gsi2pk, gsi2sk',
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':released': 'released', ':pending': 'pending', ':at': at },
    },
  };
}

/**
 * The pending funds due by `asOf`, whatever their age, of one merchant when given: page by page (each Query page
 * as it comes, so a caller can release a page before the next is read), one Query of each release index shard with
 * `gsi2sk <= <asOf>#~`, oldest first within a shard. Items released while this reads simply leave the index; the
 * next page starts after the last item read.
 */
export async function* dueFundsPages(asOf: string, merchantId?: string): AsyncGenerator<PendingFunds[]> {
  for (let shard = 0; shard < RELEASE_SHARDS; shard++) {
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi2',
          KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :until',
          ...(merchantId ? { FilterExpression: 'merchantId = :m' } : {}),
          ExpressionAttributeValues: { ':pk': releasesOf(shard).gsi2pk, ':until': `${asOf}#~`, ...(merchantId ? { ':m': merchantId } : {}) },
          ExclusiveStartKey,
        }),
      );
      if (page.Items?.length) yield page.Items.map(PendingFundsEntity.parse);
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  }
}
