/**
 * Transactions of an organization (catalog records: `TRANSACTION#<id>` / `TRANSACTION`, listed through gsi1 by
 * creation and gsi2 by last update under `TRANSACTIONS#<orgId>`). A transaction is written `sending` together with
 * its idempotency claim, before the processor is called, and settled once (`settleTransaction`, conditional on
 * its status) in the transaction that records the processor's answer. It keeps the card's brand, last four digits
 * and expiry and the processor's reference of the card — never a card number.
 */
import { BatchGetCommand, GetCommand, QueryCommand, type BatchGetCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { CardBrand } from '../domain/card-data.ts';
import type { PaymentMethod } from '../domain/payment-methods.ts';
import type { CombinedStatus, DeclineReason, PaymentType, SortableTransaction } from './transactions.rules.ts';
import { isTransactionId } from './transactions.rules.ts';
import { db, tableName } from '../platform/db/client.ts';
import { stringOrNull, withoutNulls } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { TransactItem } from '../platform/db/types.ts';

export interface TransactionCard {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
}

/**
 * What a checkout payment bought and how its amount was made (minor units): the lines due today, the promo
 * code's discount and the tax. Receipts are drawn from it; null on transactions made through the API.
 */
export interface CheckoutBreakdown {
  /** The plan checkout session paid, or null for an order. */
  sessionId: string | null;
  lines: Array<{ description: string; quantity: number; unitAmountMinor: number; amountMinor: number }>;
  subtotalMinor: number;
  discountMinor: number;
  taxMinor: number;
  promoCode: string | null;
  promoCodeId: string | null;
  billingCountry: string;
  /** The customer invoice the paid order settles, or null. */
  invoiceId: string | null;
  /** Where the buyer reads the receipt (fixed when the payment is claimed, so whoever settles it answers the same). */
  receiptUrl: string;
  /**
   * A recurring plan's checkout: the subscription the payment starts, as the subscriptions module fixed it at the
   * claim (opaque here), written by the settlement of a completed payment; null otherwise.
   */
  subscription: object | null;
}

export interface Transaction {
  id: string;
  organizationId: string;
  status: CombinedStatus;
  /** Positive integer minor units of `currency`. */
  amountMinor: number;
  /** ISO 4217, uppercase. */
  currency: string;
  description: string | null;
  customerId: string | null;
  /** The customer's name (or e-mail when it has none) when the transaction was made. */
  customerName: string | null;
  /** The customer's e-mail when the transaction was made: searchable, never shown. */
  customerEmail: string | null;
  paymentInstrumentId: string | null;
  /** The card token paid with, when it was one. */
  tokenId: string | null;
  paymentMethod: PaymentMethod;
  paymentType: PaymentType;
  /** The processor that handled it (e.g. `sandbox`). */
  gatewayName: string;
  card: TransactionCard | null;
  /** The processor's reference of the card charged. Never shown. */
  processorReference: string;
  /** The processor's id of the charge (`pay_…`); null until it answered. */
  externalTransactionId: string | null;
  declineReason: DeclineReason | null;
  subscriptionId: string | null;
  /** The order this payment paid (checkout by order or invoice), or null. */
  orderId: string | null;
  /** The plan this payment bought at checkout, or null. */
  planId: string | null;
  checkout: CheckoutBreakdown | null;
  idempotencyKey: string;
  /** Made on the sandbox deployment (an organization in test mode). */
  isTestData: boolean;
  /** When the processor's answer was recorded; null while `sending`. */
  processedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Refunds (shared/payments/refunds.repository.ts): minor units refunded or being refunded (pending refunds reserve theirs); absent: 0. */
  refundedMinor?: number;
  /** Minor units of the refunds that reached `refunded`; absent: 0. */
  refundSettledMinor?: number;
}

/** What `search` looks in: id, description, customer name and e-mail, and the processor's id, lowercased. */
const searchTextOf = (t: Transaction): string =>
  [t.id, t.description, t.customerName, t.customerEmail, t.externalTransactionId].filter(Boolean).join('\n').toLowerCase();

function toItem(t: Transaction): Record<string, unknown> {
  return {
    ...keys.catalogItem('TRANSACTION', t.id),
    ...keys.catalogListing('TRANSACTION', t.organizationId, t.id, t.createdAt, t.updatedAt),
    entity: 'transaction',
    ...withoutNulls({ ...t, searchText: searchTextOf(t) }),
  };
}

function checkoutFromItem(x: unknown): CheckoutBreakdown | null {
  if (!x || typeof x !== 'object') return null;
  const c = x as Record<string, unknown>;
  return {
    sessionId: stringOrNull(c.sessionId),
    lines: (c.lines as Array<Record<string, unknown>>).map((l) => ({
      description: l.description as string,
      quantity: Number(l.quantity),
      unitAmountMinor: Number(l.unitAmountMinor),
      amountMinor: Number(l.amountMinor),
    })),
    subtotalMinor: Number(c.subtotalMinor),
    discountMinor: Number(c.discountMinor),
    taxMinor: Number(c.taxMinor),
    promoCode: stringOrNull(c.promoCode),
    promoCodeId: stringOrNull(c.promoCodeId),
    billingCountry: c.billingCountry as string,
    invoiceId: stringOrNull(c.invoiceId),
    receiptUrl: c.receiptUrl as string,
    subscription: c.subscription && typeof c.subscription === 'object' ? c.subscription : null,
  };
}

export function fromItem(i: Record<string, unknown>): Transaction {
  const card = i.card as Record<string, unknown> | undefined;
  const decline = i.declineReason as Record<string, unknown> | undefined;
  return {
    id: i.id as string,
    organizationId: i.organizationId as string,
    status: i.status as CombinedStatus,
    amountMinor: Number(i.amountMinor),
    currency: i.currency as string,
    description: stringOrNull(i.description),
    customerId: stringOrNull(i.customerId),
    customerName: stringOrNull(i.customerName),
    customerEmail: stringOrNull(i.customerEmail),
    paymentInstrumentId: stringOrNull(i.paymentInstrumentId),
    tokenId: stringOrNull(i.tokenId),
    paymentMethod: i.paymentMethod as PaymentMethod,
    paymentType: i.paymentType as PaymentType,
    gatewayName: i.gatewayName as string,
    card: card ? { brand: card.brand as CardBrand, last4: card.last4 as string, expMonth: Number(card.expMonth), expYear: Number(card.expYear) } : null,
    processorReference: i.processorReference as string,
    externalTransactionId: stringOrNull(i.externalTransactionId),
    declineReason: decline ? { code: decline.code as string, message: decline.message as string } : null,
    subscriptionId: stringOrNull(i.subscriptionId),
    orderId: stringOrNull(i.orderId),
    planId: stringOrNull(i.planId),
    checkout: checkoutFromItem(i.checkout),
    idempotencyKey: i.idempotencyKey as string,
    isTestData: Boolean(i.isTestData),
    processedAt: stringOrNull(i.processedAt),
    createdAt: i.createdAt as string,
    updatedAt: i.updatedAt as string,
    ...(i.refundedMinor !== undefined ? { refundedMinor: Number(i.refundedMinor) } : {}),
    ...(i.refundSettledMinor !== undefined ? { refundSettledMinor: Number(i.refundSettledMinor) } : {}),
  };
}

/**
 * A new transaction (`sending`), for the transaction of its idempotency claim, on the unsettled index until it is
 * settled; the id is new, so the condition only guards a collision.
 */
export function putNewTransaction(t: Transaction): TransactItem {
  return {
    Put: { TableName: tableName(), Item: { ...toItem(t), ...keys.unsettled('charge', t.id, t.createdAt) }, ConditionExpression: 'attribute_not_exists(pk)' },
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
      Key: keys.catalogItem('TRANSACTION', t.id),
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
        ':gsi2sk': keys.catalogListing('TRANSACTION', t.organizationId, t.id, t.createdAt, t.updatedAt).gsi2sk,
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
export function reserveRefund(t: Transaction, amountMinor: number, refundableStatuses: readonly CombinedStatus[], at: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.catalogItem('TRANSACTION', t.id),
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
        ':maxBefore': t.amountMinor - amountMinor,
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
      Key: keys.catalogItem('TRANSACTION', transactionId),
      UpdateExpression: 'ADD refundedMinor :minus SET refundUpdatedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':minus': -amountMinor, ':at': at },
    },
  };
}

/**
 * Records a refund of `refundMinor` that reached `refunded` on its transaction `t` (as read): the refunded total grows
 * by it (`ADD`), `updatedAt` moves on and the status becomes `to` (null: it stays). The condition is only what `to`
 * was decided on, so refunds settling at once do not fail each other: for `refunded`, that this refund completes
 * the total; for `partially-refunded`, that it does not; both from a status in `movesFrom`; for a status that stays,
 * that it is still `t.status`. When it fails (the total was crossed, the status changed), the caller reads again.
 */
export function settleRefundOnTransaction(
  t: Transaction,
  refundMinor: number,
  to: CombinedStatus | null,
  movesFrom: readonly CombinedStatus[],
  at: string,
): TransactItem {
  const before = t.amountMinor - refundMinor;
  const noneBefore = '(attribute_not_exists(refundSettledMinor) OR refundSettledMinor';
  const fromStatuses = `#status IN (${movesFrom.map((_, n) => `:from${n}`).join(', ')})`;
  const condition =
    to === null
      ? '#status = :from'
      : to === 'refunded'
        ? `${fromStatuses} AND ${before === 0 ? `${noneBefore} = :before)` : 'refundSettledMinor = :before'}`
        : `${fromStatuses} AND ${noneBefore} < :before)`;
  return {
    Update: {
      TableName: tableName(),
      Key: keys.catalogItem('TRANSACTION', t.id),
      UpdateExpression: `SET updatedAt = :at, gsi2sk = :gsi2sk${to ? ', #status = :to' : ''} ADD refundSettledMinor :refund`,
      ConditionExpression: condition,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':refund': refundMinor,
        ':at': at,
        ':gsi2sk': keys.catalogListing('TRANSACTION', t.organizationId, t.id, t.createdAt, at).gsi2sk,
        ...(to === null ? { ':from': t.status } : { ':to': to, ':before': before, ...Object.fromEntries(movesFrom.map((st, n) => [`:from${n}`, st])) }),
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
      Item: { ...keys.externalTransaction(t.externalTransactionId), entity: 'externalTransaction', organizationId: t.organizationId, transactionId: t.id },
    },
  };
}

/** The transaction the processor's charge id `externalId` belongs to, whatever its organization; null when none. */
export async function getTransactionByExternalId(externalId: string): Promise<Transaction | null> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.externalTransaction(externalId) }));
  if (!Item) return null;
  return getTransaction(Item.organizationId as string, Item.transactionId as string);
}

/** The transaction `id`, whatever its organization (checkout receipts check what it paid instead); null when none. */
export async function getTransactionById(id: string): Promise<Transaction | null> {
  if (!isTransactionId(id)) return null;
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.catalogItem('TRANSACTION', id) }));
  return Item ? fromItem(Item) : null;
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
  const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.catalogItem('TRANSACTION', id), ConsistentRead: true }));
  return Item && Item.organizationId === organizationId ? fromItem(Item) : null;
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
  return { totalCount: page.totalCount, items: page.items.map(fromItem) };
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
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ...(f ? { FilterExpression: f.expression } : {}),
        ProjectionExpression: sortFields.map((_, n) => `#p${n}`).join(', '),
        ExpressionAttributeNames: { ...Object.fromEntries(sortFields.map((a, n) => [`#p${n}`, a])), ...f?.names },
        ExpressionAttributeValues: { ':pk': keys.catalogPartition('TRANSACTION', organizationId), ...f?.values },
        ExclusiveStartKey,
      }),
    );
    for (const i of page.Items ?? []) {
      out.push({
        id: i.id as string,
        createdAt: i.createdAt as string,
        description: stringOrNull(i.description),
        customerName: stringOrNull(i.customerName),
        processedAt: stringOrNull(i.processedAt),
        paymentType: i.paymentType as string,
        gatewayName: i.gatewayName as string,
      });
    }
    if (out.length > max) return 'too_many';
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return out;
}

/** The transactions `ids` (at most 100, one BatchGetItem), in the order of `ids`; missing ones left out. */
export async function getTransactions(ids: readonly string[]): Promise<Transaction[]> {
  if (ids.length > 100) throw new Error('At most 100 transactions are read at once');
  const found = new Map<string, Transaction>();
  let pending: Record<string, unknown>[] | undefined = ids.map((id) => keys.catalogItem('TRANSACTION', id));
  for (let attempt = 1; pending?.length; attempt++) {
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    const { Responses, UnprocessedKeys }: BatchGetCommandOutput = await db.send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }));
    for (const item of Responses?.[tableName()] ?? []) {
      const t = fromItem(item);
      found.set(t.id, t);
    }
    pending = UnprocessedKeys?.[tableName()]?.Keys;
    if (pending?.length && attempt >= 5) throw new Error('DynamoDB left transaction keys unprocessed');
  }
  return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
}
