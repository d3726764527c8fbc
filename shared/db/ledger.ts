/**
 * The ledger's items (rules in shared/domain/ledger.ts):
 * - journals `JOURNAL#<id>` / `JOURNAL`, listed per merchant through gsi1 (`JOURNALS#<merchantId>`, by creation).
 *   Append-only: written once (`attribute_not_exists`, and the id is deterministic per business event, so an event
 *   can never be booked twice); this module has no update or delete of a journal.
 * - balances `MERCHANT#<id>` / `BALANCE#<currency>`: each merchant account's balance, changed only by `ADD` in the
 *   same transaction as the journal that moves it (so it always equals the sum of the journals' entries), with a
 *   condition whenever the change depends on what was read (available covering a payout, the owed amount a
 *   release repays).
 * - pending funds `PENDINGFUNDS#<transactionId>` / `PENDINGFUNDS`: a payment's net while it is held, indexed by
 *   the day it is due (gsi2 `RELEASES#<yyyy-mm-dd>`, removed when released: a sparse index the release job reads).
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Journal, MerchantBalances } from '../domain/ledger.ts';
import { zeroBalances } from '../domain/ledger.ts';
import { db, queryAll, tableName } from './client.ts';
import { keys } from './keys.ts';
import type { TransactItem } from './types.ts';

const balanceFields = ['pending', 'available', 'reserved', 'inTransit', 'owed', 'paidOut'] as const;

/** A journal, written once. */
export function putJournal(j: Journal): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.journal(j.id), ...keys.journalListing(j.merchantId, j.createdAt, j.id), entity: 'journal', ...j },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** What a balance change requires of the balance as it is (each optional). */
export interface BalanceCondition {
  /** Available must be at least this (a payout, a debit that takes this much from available). */
  availableAtLeast?: number;
  /** Owed must be exactly this (a release or won dispute that repays it). */
  owedEquals?: number;
}

/** A field equals `:v`, counting a field the item does not have yet as 0. */
const equalsOrAbsent = (field: string, placeholder: string, value: number) =>
  value === 0 ? `(attribute_not_exists(${field}) OR ${field} = ${placeholder})` : `${field} = ${placeholder}`;

/** Adds `delta` to the merchant's balance in `currency` (created at zero when new), under `condition`. */
export function applyBalance(merchantId: string, currency: string, delta: MerchantBalances, at: string, condition: BalanceCondition = {}): TransactItem {
  const adds = balanceFields.filter((f) => delta[f] !== 0);
  const values: Record<string, unknown> = { ':at': at, ':merchant': merchantId, ':currency': currency, ':entity': 'balance' };
  for (const f of adds) values[`:${f}`] = delta[f];
  const conditions: string[] = [];
  if (condition.availableAtLeast !== undefined && condition.availableAtLeast > 0) {
    conditions.push('available >= :minAvailable');
    values[':minAvailable'] = condition.availableAtLeast;
  }
  if (condition.owedEquals !== undefined) {
    conditions.push(equalsOrAbsent('owed', ':owedWas', condition.owedEquals));
    values[':owedWas'] = condition.owedEquals;
  }
  return {
    Update: {
      TableName: tableName(),
      Key: keys.balance(merchantId, currency),
      UpdateExpression: `SET updatedAt = :at, merchantId = :merchant, currency = :currency, entity = :entity${adds.length ? ` ADD ${adds.map((f) => `${f} :${f}`).join(', ')}` : ''}`,
      ...(conditions.length ? { ConditionExpression: conditions.join(' AND ') } : {}),
      ExpressionAttributeValues: values,
    },
  };
}

const balancesFromItem = (i: Record<string, unknown> | undefined): MerchantBalances => {
  const b = zeroBalances();
  for (const f of balanceFields) b[f] = Number(i?.[f] ?? 0);
  return b;
};

/** The merchant's balances in `currency` (zero when it has none yet). */
export async function getBalance(merchantId: string, currency: string): Promise<MerchantBalances> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.balance(merchantId, currency), ConsistentRead: true }));
  return balancesFromItem(Item);
}

/** Every currency the merchant has a balance in, with its balances: one Query of the merchant's partition. */
export async function listBalances(merchantId: string): Promise<Array<{ currency: string; balances: MerchantBalances }>> {
  const k = keys.balancesOf(merchantId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': k.pk, ':prefix': k.skPrefix },
    ConsistentRead: true,
  });
  return items.map((i) => ({ currency: i.currency as string, balances: balancesFromItem(i) })).sort((a, b) => a.currency.localeCompare(b.currency));
}

/** Every journal of the merchant, oldest first. */
export async function listJournals(merchantId: string): Promise<Journal[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.journalListing(merchantId, '', '').gsi1pk },
  });
  return items.map((i) => ({
    id: i.id as string, type: i.type as Journal['type'], merchantId: i.merchantId as string, currency: i.currency as string,
    entries: (i.entries as Journal['entries']).map((e) => ({ account: e.account, amount: Number(e.amount) })),
    reference: i.reference as string, createdAt: i.createdAt as string,
  }));
}

// Pending funds

export interface PendingFunds {
  transactionId: string;
  merchantId: string;
  currency: string;
  netMinor: number;
  releaseAt: string;
  status: 'pending' | 'released';
}

/** The day bucket of the release index an instant falls in. */
export const releaseDay = (iso: string): string => iso.slice(0, 10);

/** A payment's net, held until `releaseAt` (written with the payment's journal). */
export function putPendingFunds(p: PendingFunds): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.pendingFunds(p.transactionId), ...keys.releaseListing(releaseDay(p.releaseAt), p.releaseAt, p.transactionId), entity: 'pendingFunds', ...p },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Marks pending funds released (once: the condition is that they are still pending) and drops them from the index. */
export function markReleased(transactionId: string, at: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.pendingFunds(transactionId),
      UpdateExpression: 'SET #status = :released, releasedAt = :at REMOVE gsi2pk, gsi2sk',
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':released': 'released', ':pending': 'pending', ':at': at },
    },
  };
}

/** The pending funds due on `day` by `asOf` (one Query of that day's bucket of the release index), of one merchant when given. */
export async function listDueFunds(day: string, asOf: string, merchantId?: string): Promise<PendingFunds[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :until',
      ...(merchantId ? { FilterExpression: 'merchantId = :m' } : {}),
      ExpressionAttributeValues: { ':pk': keys.releaseListing(day, '', '').gsi2pk, ':until': `${asOf}#~`, ...(merchantId ? { ':m': merchantId } : {}) },
      ExclusiveStartKey,
    }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items.map((i) => ({
    transactionId: i.transactionId as string, merchantId: i.merchantId as string, currency: i.currency as string,
    netMinor: Number(i.netMinor), releaseAt: i.releaseAt as string, status: i.status as PendingFunds['status'],
  }));
}
