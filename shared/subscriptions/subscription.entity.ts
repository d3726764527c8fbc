/**
 * A subscription (`SUBSCRIPTION#<id>` / `SUBSCRIPTION`): a catalog record of the organization, listed through gsi1
 * by creation and gsi2 by last update (`SUBSCRIPTIONS#<orgId>[#<shard>]`, 8 shards), per customer through gsi4 by
 * creation (`SUBSCRIPTIONS#<orgId>#<customerId>`), and — while the renewal engine has something to do
 * for it — on the sparse due index (gsi3, `SUBSCRIPTIONSDUE#<shard>` / `<dueAt>#<id>`, `subscriptionDue`). Its
 * pending step is kept as JSON text (`attribute_not_exists(pending)` is the condition of every other change).
 */
import * as v from 'valibot';
import { anchorMethods, intervalUnits, pricingFormulas, type PeriodAnchorInstruction, type PricingFormula } from '../catalog/plan-vocabulary.schemas.ts';
import { entity, orNull } from '../platform/db/entity.ts';
import { catalogItem, catalogListing, customerListing, shardOf } from '../platform/db/keys.ts';
import type { TransactItem } from '../platform/db/types.ts';
import type { TaxAddress } from '../domain/tax.ts';
import { pausedByValues } from './changes.rules.ts';
import type { PeriodAnchor } from './periods.rules.ts';
import { type BillingCycle, type PastDue, type Pause, type SubscriptionStatus, subscriptionStatuses } from './subscriptions.rules.ts';

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
  /** The tax in `amountMinor` (0: untaxed; absent: not taxed yet, `taxedSpec` taxes it). */
  taxMinor?: number;
  /** The invoice was written by an earlier attempt (a declined period being retried): a paid retry marks it paid. */
  invoiceExists?: boolean;
  /** A declined charge that changes nothing (an API request answered 402) has no invoice: false. Default true. */
  invoiceIfDeclined?: boolean;
  /** When what it pays starts, when not the period's start (an items change pays the rest of the period from it). */
  paysFrom?: string;
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

export type { TaxAddress } from '../domain/tax.ts';

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
   * The payments of the prorated items changes in the paid period, after `periodTransactionId`, oldest first: a
   * prorated cancellation refunds the period's unused value from these and its first payment, newest first.
   */
  periodChargeIds: string[];
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

/**
 * Partitions of the subscriptions' due index (gsi3): a subscription is written there whenever the engine next has
 * something to do for it. It may grow and never shrink (the sweeper reads shards 0 to N − 1; an entry written under
 * a smaller N stays in a shard still read). 32: a million renewals due at once write each shard's partition about
 * 0.2 write units a renewal (docs/performance.md, "Renewal storm").
 */
export const DUE_SHARDS = 32;

/**
 * A subscription's place on the due index (gsi3, sparse): the instant the renewal engine must next look at it,
 * in one of `DUE_SHARDS` partitions; absent when nothing will ever be due (ended, paused without an end).
 */
export const subscriptionDue = (subscriptionId: string, dueAt: string) => ({
  gsi3pk: `SUBSCRIPTIONSDUE#${shardOf(subscriptionId, DUE_SHARDS)}`,
  gsi3sk: `${dueAt}#${subscriptionId}`,
});
/** One partition of the due index (`shard` from 0 to `DUE_SHARDS` − 1). */
export const subscriptionsDueOf = (shard: number) => ({ gsi3pk: `SUBSCRIPTIONSDUE#${shard}` });

/** What `search` matches: the id, name and customer's name and e-mail, lowercased. */
const searchTextOf = (s: Subscription) => [s.id, s.name, s.customerName, s.customerEmail].filter(Boolean).join('\n').toLowerCase();

const cycle = v.object({ unit: v.picklist(intervalUnits), length: v.number() });

/** The subscription's item, without its place on the due index (the repository adds it: it is not the record's). */
export const SubscriptionEntity = entity<Subscription, { id: string }>({
  kind: 'subscription',
  schema: v.pipe(
    v.object({
      id: v.string(),
      organizationId: v.string(),
      customerId: v.string(),
      customerName: orNull(v.string()),
      customerEmail: orNull(v.string()),
      paymentInstrumentId: orNull(v.string()),
      isAutoPay: v.optional(v.boolean(), false),
      name: v.string(),
      currency: v.string(),
      priceMinor: v.number(),
      cycle,
      anchorInstruction: orNull(v.object({ method: v.picklist(anchorMethods), day: v.number(), time: v.string() })),
      items: v.array(
        v.object({
          planId: v.string(),
          planName: v.string(),
          quantity: v.number(),
          unitPriceMinor: v.number(),
          formula: v.picklist(pricingFormulas),
          currency: v.string(),
          cycle,
        }),
      ),
      status: v.picklist(subscriptionStatuses),
      startAt: v.string(),
      trialEndAt: orNull(v.string()),
      isTrialOnly: v.optional(v.boolean(), false),
      anchor: orNull(v.object({ at: v.string(), unit: v.picklist(intervalUnits), length: v.number(), dayOfMonth: v.number() })),
      periodIndex: orNull(v.number()),
      periodNumber: v.optional(v.number(), 0),
      periodInvoiceId: orNull(v.string()),
      periodStart: orNull(v.string()),
      periodEnd: orNull(v.string()),
      endAt: orNull(v.string()),
      endedAt: orNull(v.string()),
      openCancellationId: orNull(v.string()),
      pause: orNull(v.object({ id: v.string(), effectiveAt: v.string(), endAt: orNull(v.string()), by: v.optional(v.picklist(pausedByValues)) })),
      periodTransactionId: orNull(v.string()),
      periodChargeIds: v.optional(v.array(v.string()), []),
      periodValueMinor: orNull(v.number()),
      pastDue: orNull(
        v.object({
          periodIndex: v.number(),
          periodNumber: v.optional(v.number(), 0),
          key: v.optional(v.string()),
          declinedAt: v.string(),
          retries: v.number(),
          amountMinor: v.optional(v.number()),
          taxMinor: v.optional(v.number()),
          description: v.optional(v.string()),
          tellCustomer: v.optional(v.boolean()),
        }),
      ),
      delinquencyDays: v.number(),
      remindedFor: v.optional(v.array(v.string()), []),
      renewalRemindersSentAt: v.optional(v.array(v.string()), []),
      creditMinor: v.optional(v.number(), 0),
      billingAddress: orNull(v.object({ country: v.string(), state: orNull(v.string()), postalCode: orNull(v.string()) })),
      orderId: orNull(v.string()),
      activatedAt: orNull(v.string()),
      isTestData: v.optional(v.boolean(), false),
      createdAt: v.string(),
      updatedAt: v.string(),
      version: v.number(),
      // Kept as it was written: the step's charge and effects are the engine's, replayed as they were decided.
      pending: orNull(
        v.pipe(
          v.string(),
          v.transform((text): PendingStep => JSON.parse(text)),
        ),
      ),
      dueAt: orNull(v.string()),
    }),
    // A past-due period written before its charge's key was kept was a renewal's.
    v.transform((s) => ({ ...s, pastDue: s.pastDue && { ...s.pastDue, key: s.pastDue.key ?? `renewal:${s.id}:${s.pastDue.periodNumber}` } })),
  ),
  key: (s) => catalogItem('SUBSCRIPTION', s.id),
  attributes: (s) => ({
    ...catalogListing('SUBSCRIPTION', s.organizationId, s.id, s.createdAt, s.updatedAt),
    ...customerListing('SUBSCRIPTION', s.organizationId, s.customerId),
    searchText: searchTextOf(s),
    /** The plans of its items, for the list's `planId` filter (`contains`). */
    planIds: [...new Set(s.items.map((it) => it.planId))],
    ...(s.pending ? { pending: JSON.stringify(s.pending) } : {}),
  }),
});
