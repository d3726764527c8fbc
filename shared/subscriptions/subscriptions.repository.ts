/**
 * Subscriptions in the table: a catalog record (`SUBSCRIPTION#<id>`, listed per organization through gsi1 by
 * creation and gsi2 by last update), and — while the renewal engine has something to do for it — on the sparse due
 * index (gsi3, `SUBSCRIPTIONSDUE#<shard>` / `<dueAt>#<id>`, `keys.subscriptionDue`).
 *
 * Every change replaces the item on the condition that its `version` is still the one read, so two workers (a
 * duplicate queue message, a second sweeper, a test clock advance) never both apply a step. The sweeper's claim is
 * the one write that does not change the version: it moves the item's place on the due index to the end of its
 * lease, so no other sweep picks it up meanwhile, and the worker's next write puts it where it belongs.
 */
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PeriodAnchorInstruction, PricingFormula } from '../catalog/plans.rules.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { db, isConditionFailed, queryAll, tableName, type ItemRead } from '../platform/db/client.ts';
import { withoutNulls } from '../platform/db/items.ts';
import * as keys from '../platform/db/keys.ts';
import { listCatalogPage, type CatalogListOptions } from '../platform/db/listing.ts';
import type { PeriodAnchor } from './periods.rules.ts';
import type { BillingCycle, PastDue, Pause, SubscriptionStatus } from './subscriptions.rules.ts';

export interface SubscriptionItem {
  planId: string;
  planName: string;
  quantity: number;
  /** The plan's price when the item was set (minor units). */
  unitPriceMinor: number;
  formula: PricingFormula;
  currency: string;
  cycle: BillingCycle;
}

/** What a step does to a subscription: its fields after, and the other records its transaction writes. */
export interface Effect {
  changes: Partial<Subscription>;
  extra: TransactItem[];
}

/** One charge of a subscription: its key, transaction, what it is for, its amount and its invoice. */
export interface ChargeSpec {
  /** Named by what it pays (see the top of this module). */
  key: string;
  /** The transaction's id (fixed when the step is decided, so its effect can name it). */
  transactionId: string;
  invoiceId: string;
  description: string;
  /** What is charged: the lines' amounts and, once taxed (`taxedSpec`), their tax. */
  amountMinor: number;
  /** Before tax; `taxRate` (a percentage) once taxed. */
  lines: Array<{ description: string; quantity: number; unitPriceMinor: number; taxRate?: number }>;
  /** The tax in `amountMinor` (0 or absent: untaxed). */
  taxMinor?: number;
  /** The invoice was written by an earlier attempt (a declined period being retried): a paid retry marks it paid. */
  invoiceExists?: boolean;
  /** A declined charge that changes nothing (an API request answered 402) has no invoice: false. Default true. */
  invoiceIfDeclined?: boolean;
}

/**
 * A step whose charge is claimed and not settled yet (see ./steps.service.ts): the charge, and what the step does
 * when it is paid and when it is declined. While one is pending, no other change of the subscription is written.
 */
export interface PendingStep {
  key: string;
  transactionId: string;
  /** The step's time (clock time) and the clock's offset then. */
  at: string;
  offsetMs: number;
  spec: ChargeSpec;
  paid: Effect;
  declined: Effect;
}

/** A buyer's address as far as tax needs it. */
export interface TaxAddress {
  country: string;
  state: string | null;
  postalCode: string | null;
}

export interface Subscription {
  /** A UUID (v7). */
  id: string;
  organizationId: string;
  customerId: string;
  customerName: string | null;
  customerEmail: string | null;
  /** The instrument renewals charge; null: the customer's primary instrument at each charge. */
  paymentInstrumentId: string | null;
  isAutoPay: boolean;
  name: string;
  currency: string;
  /** The items' sum (minor units). */
  priceMinor: number;
  cycle: BillingCycle;
  anchorInstruction: PeriodAnchorInstruction | null;
  items: SubscriptionItem[];
  status: SubscriptionStatus;
  startAt: string;
  trialEndAt: string | null;
  isTrialOnly: boolean;
  /** Where periods are counted from (null until billing starts). */
  anchor: PeriodAnchor | null;
  /** The paid period: its index on the anchor, start and end (null before the first charge). */
  periodIndex: number | null;
  /**
   * How many periods were started over the subscription's life (charged, paid or declined, or paid by credit): the
   * next period is number `periodNumber + 1`, and a renewal's charge is keyed by it.
   */
  periodNumber: number;
  /** The invoice of the paid period (null: none yet). */
  periodInvoiceId: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  /** A scheduled end (a cancellation at a period end or at a date of its own); null: none. */
  endAt: string | null;
  /** When it ended (canceled, completed); null while it lives. */
  endedAt: string | null;
  /** The open (draft or confirmed) cancellation; one at a time. */
  openCancellationId: string | null;
  /** The pause that is pending or under way; one at a time. */
  pause: Pause | null;
  /** The payment of the paid period (what a prorated cancellation refunds part of); null: none (paid by credit). */
  periodTransactionId: string | null;
  /**
   * What the paid period is worth (minor units): its price when it was charged, re-priced by a prorated items change.
   * Its unused time is credited (a pause, a proration) and refunded (a prorated cancellation) at this value, not at
   * what the items cost now. Null: what they cost now (the period was priced at the current items).
   */
  periodValueMinor: number | null;
  pastDue: PastDue | null;
  delinquencyDays: number;
  /** Period ends a reminder was sent for, and when each was sent. */
  remindedFor: string[];
  renewalRemindersSentAt: string[];
  /** Credit carried to the next charges (minor units before tax, ≥ 0). */
  creditMinor: number;
  /**
   * Where the buyer is, for tax: every charge is taxed at the rate in force for it on the charge's date (null: a
   * subscription created before addresses were kept, charged untaxed).
   */
  billingAddress: TaxAddress | null;
  orderId: string | null;
  /** When it first became locally active (`subscription.created` was written then); null: not yet. */
  activatedAt: string | null;
  isTestData: boolean;
  createdAt: string;
  updatedAt: string;
  /** Raised by every change; each change is conditional on the version read. */
  version: number;
  /** The step whose charge is being made (null: none); every other change waits for it. */
  pending: PendingStep | null;
  /** When the engine next has something to do for it (clock time); null: never. */
  dueAt: string | null;
}

/** What `search` matches: the id, name and customer's name and e-mail, lowercased. */
const searchTextOf = (s: Subscription) => [s.id, s.name, s.customerName, s.customerEmail].filter(Boolean).join('\n').toLowerCase();

/** The item of `s`, on the due index at `indexAt` (real time; null: off the index). */
const toItem = (s: Subscription, indexAt: string | null) => ({
  ...keys.catalogItem('SUBSCRIPTION', s.id),
  ...keys.catalogListing('SUBSCRIPTION', s.organizationId, s.id, s.createdAt, s.updatedAt),
  ...(indexAt ? keys.subscriptionDue(s.id, indexAt) : {}),
  entity: 'subscription',
  searchText: searchTextOf(s),
  /** The plans of its items, for the list's `planId` filter (`contains`). */
  planIds: [...new Set(s.items.map((it) => it.planId))],
  ...withoutNulls({ ...s, pending: s.pending ? JSON.stringify(s.pending) : null }),
});

const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);

export const fromItem = (i: Record<string, unknown>): Subscription => ({
  id: i.id as string,
  organizationId: i.organizationId as string,
  customerId: i.customerId as string,
  customerName: str(i.customerName),
  customerEmail: str(i.customerEmail),
  paymentInstrumentId: str(i.paymentInstrumentId),
  isAutoPay: Boolean(i.isAutoPay),
  name: i.name as string,
  currency: i.currency as string,
  priceMinor: Number(i.priceMinor),
  cycle: i.cycle as BillingCycle,
  anchorInstruction: (i.anchorInstruction as PeriodAnchorInstruction | undefined) ?? null,
  items: (i.items as Array<Record<string, unknown>>).map((it) => ({
    planId: it.planId as string,
    planName: it.planName as string,
    quantity: Number(it.quantity),
    unitPriceMinor: Number(it.unitPriceMinor),
    formula: it.formula as PricingFormula,
    currency: it.currency as string,
    cycle: it.cycle as BillingCycle,
  })),
  status: i.status as SubscriptionStatus,
  startAt: i.startAt as string,
  trialEndAt: str(i.trialEndAt),
  isTrialOnly: Boolean(i.isTrialOnly),
  anchor: i.anchor
    ? { ...(i.anchor as PeriodAnchor), length: Number((i.anchor as PeriodAnchor).length), dayOfMonth: Number((i.anchor as PeriodAnchor).dayOfMonth) }
    : null,
  periodIndex: i.periodIndex == null ? null : Number(i.periodIndex),
  periodNumber: Number(i.periodNumber ?? 0),
  periodInvoiceId: str(i.periodInvoiceId),
  periodStart: str(i.periodStart),
  periodEnd: str(i.periodEnd),
  endAt: str(i.endAt),
  endedAt: str(i.endedAt),
  openCancellationId: str(i.openCancellationId),
  pause: i.pause ? { id: (i.pause as Pause).id, effectiveAt: (i.pause as Pause).effectiveAt, endAt: str((i.pause as Pause).endAt) } : null,
  periodTransactionId: str(i.periodTransactionId),
  periodValueMinor: i.periodValueMinor == null ? null : Number(i.periodValueMinor),
  pastDue: i.pastDue
    ? {
        ...(i.pastDue as PastDue),
        periodIndex: Number((i.pastDue as PastDue).periodIndex),
        periodNumber: Number((i.pastDue as PastDue).periodNumber ?? 0),
        key: String((i.pastDue as PastDue).key ?? `renewal:${i.id}:${(i.pastDue as PastDue).periodNumber ?? 0}`),
        retries: Number((i.pastDue as PastDue).retries),
      }
    : null,
  delinquencyDays: Number(i.delinquencyDays),
  remindedFor: (i.remindedFor as string[] | undefined) ?? [],
  renewalRemindersSentAt: (i.renewalRemindersSentAt as string[] | undefined) ?? [],
  creditMinor: Number(i.creditMinor ?? 0),
  billingAddress: i.billingAddress
    ? {
        country: String((i.billingAddress as TaxAddress).country),
        state: str((i.billingAddress as TaxAddress).state),
        postalCode: str((i.billingAddress as TaxAddress).postalCode),
      }
    : null,
  orderId: str(i.orderId),
  activatedAt: str(i.activatedAt),
  isTestData: Boolean(i.isTestData),
  createdAt: i.createdAt as string,
  updatedAt: i.updatedAt as string,
  version: Number(i.version),
  pending: typeof i.pending === 'string' ? (JSON.parse(i.pending) as PendingStep) : null,
  dueAt: str(i.dueAt),
});

/** The organization's subscription, or null (another organization's is null too). */
export async function getSubscription(organizationId: string, id: string): Promise<Subscription | null> {
  const out = await db.send(new GetCommand({ TableName: tableName(), Key: keys.catalogItem('SUBSCRIPTION', id), ConsistentRead: true }));
  return out.Item && out.Item.organizationId === organizationId ? fromItem(out.Item) : null;
}

/** A subscription by id alone (the renewal worker's read: its message names the subscription). */
export async function getSubscriptionById(id: string): Promise<Subscription | null> {
  const out = await db.send(new GetCommand({ TableName: tableName(), Key: keys.catalogItem('SUBSCRIPTION', id), ConsistentRead: true }));
  return out.Item ? fromItem(out.Item) : null;
}

/** A subscription as a read of a batch (`batchRead`); the caller checks it is the organization's. */
export const subscriptionRead = (id: string): ItemRead<Subscription> => ({ key: keys.catalogItem('SUBSCRIPTION', id), from: fromItem });

/** An organization's test clock offset as a read of a batch (no clock item: null, i.e. no offset). */
export const clockOffsetRead = (organizationId: string): ItemRead<number> => ({ key: keys.testClock(organizationId), from: (i) => Number(i.offsetMs) });

/**
 * Test-only: the race tests break the version condition on purpose, to show they catch what it prevents
 * (test/subscriptions/integration/subscription-races.test.ts). Nothing in a deployment sets it.
 */
export const stepFaults: { withoutVersionCondition?: boolean } = {};

/**
 * The condition of writing `s` (version `s.version`): the stored one is still at `s.version − 1` (or, for version 1,
 * none exists) and has no step pending — unless this write `settles` that step.
 */
function versionCondition(s: Subscription, settles: boolean) {
  if (s.version === 1) return { ConditionExpression: 'attribute_not_exists(pk)' };
  if (stepFaults.withoutVersionCondition) return {};
  return {
    ConditionExpression: settles ? '#v = :v' : '#v = :v AND attribute_not_exists(#p)',
    ExpressionAttributeNames: { '#v': 'version', ...(settles ? {} : { '#p': 'pending' }) },
    ExpressionAttributeValues: { ':v': s.version - 1 },
  };
}

/** Writes `s`, new, on the due index at `indexAt` (real time); false when it exists already. */
export async function saveNewSubscription(s: Subscription, indexAt: string | null): Promise<boolean> {
  try {
    await db.send(new PutCommand({ TableName: tableName(), Item: toItem(s, indexAt), ...versionCondition(s, false) }));
    return true;
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
}

/**
 * The transaction item that writes `s` (version `s.version`) on the due index at `indexAt`, on the condition of
 * `versionCondition`: of two changes decided on one version, one writes.
 */
export const saveSubscriptionItem = (s: Subscription, indexAt: string | null, options: { settles?: boolean } = {}) => ({
  Put: { TableName: tableName(), Item: toItem(s, indexAt), ...versionCondition(s, options.settles ?? false) },
});

/** A money movement of a step of a subscription: which step (the version it was decided on) moved what. */
export interface MoneyStep {
  subscriptionId: string;
  /** The version of the subscription the step was decided on (the one its write was conditioned on). */
  decidedOnVersion: number;
  kind: 'charge' | 'refund';
  /** The transaction charged, or the refund made. */
  id: string;
  /** The charge's key, or the refund's idempotency key. */
  key: string;
  amountMinor: number;
  at: string;
}

/**
 * The transaction item that records a step's money movement in the subscription's history, with the step's claim:
 * written once per (step, movement), never changed.
 */
export const putMoneyStep = (m: MoneyStep) => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.subscriptionMoneyStep(m.subscriptionId, m.decidedOnVersion, m.id), entity: 'subscriptionMoneyStep', ...m },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** The money movements of the subscription's steps, in the order of the versions they were decided on. */
export async function listMoneySteps(subscriptionId: string): Promise<MoneyStep[]> {
  const { pk, skPrefix } = keys.subscriptionMoneySteps(subscriptionId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
    ExpressionAttributeValues: { ':pk': pk, ':sk': skPrefix },
  });
  return items.map((i) => ({
    subscriptionId: i.subscriptionId as string,
    decidedOnVersion: Number(i.decidedOnVersion),
    kind: i.kind as MoneyStep['kind'],
    id: i.id as string,
    key: i.key as string,
    amountMinor: Number(i.amountMinor),
    at: i.at as string,
  }));
}

/** Index entries due by `before` (real time), oldest first: at most `limitPerShard` of each shard (one Query each). */
export async function listDue(before: string, limitPerShard: number): Promise<Array<{ id: string; organizationId: string; sk: string }>> {
  const shards = await Promise.all(
    Array.from({ length: keys.DUE_SHARDS }, (_, shard) =>
      db.send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk <= :before',
          ExpressionAttributeValues: { ':pk': keys.subscriptionsDueOf(shard).gsi3pk, ':before': `${before}#~` },
          ProjectionExpression: 'id, organizationId, gsi3sk',
          Limit: limitPerShard,
        }),
      ),
    ),
  );
  return shards.flatMap((page) => (page.Items ?? []).map((i) => ({ id: i.id as string, organizationId: i.organizationId as string, sk: i.gsi3sk as string })));
}

/**
 * Claims a due entry: moves it on the index to `leaseUntil` (real time) if it is still at `seenSk`. Answers false
 * when another sweep (or a worker's write) moved it first.
 */
export async function claimDue(id: string, seenSk: string, leaseUntil: string): Promise<boolean> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.catalogItem('SUBSCRIPTION', id),
        UpdateExpression: 'SET gsi3sk = :lease',
        ConditionExpression: 'gsi3sk = :seen',
        ExpressionAttributeValues: { ':lease': keys.subscriptionDue(id, leaseUntil).gsi3sk, ':seen': seenSk },
      }),
    );
    return true;
  } catch (e) {
    if (isConditionFailed(e)) return false;
    throw e;
  }
}

/** Puts the subscription on the due index at once (real time): the next sweep queues it, whatever its place was. */
export async function queueNow(id: string): Promise<void> {
  const at = keys.subscriptionDue(id, new Date().toISOString());
  await db.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.catalogItem('SUBSCRIPTION', id),
      UpdateExpression: 'SET gsi3pk = :pk, gsi3sk = :sk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':pk': at.gsi3pk, ':sk': at.gsi3sk },
    }),
  );
}

/** Every subscription of the organization (the test clock's advance reads them all: sandbox only). */
export async function listAllOfOrganization(organizationId: string): Promise<Subscription[]> {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.catalogPartition('SUBSCRIPTION', organizationId) },
  });
  return items.map(fromItem);
}

/** One page of the organization's subscriptions (see shared/platform/db/listing.ts). */
export async function listSubscriptionPage(organizationId: string, options: CatalogListOptions) {
  const page = await listCatalogPage('SUBSCRIPTION', organizationId, options);
  return { totalCount: page.totalCount, items: page.items.map(fromItem) };
}
