/**
 * Subscriptions bought at checkout: a recurring plan's confirm starts one, exactly once, in the same transaction as
 * the payment's settlement (or, with nothing due today, as the confirm itself).
 *
 * The confirm's claim fixes the subscription — its id, plan, quantity, customer, instrument, the plan's trial and
 * the organization's clock offset — as a snapshot kept in the claimed transaction (`checkoutSubscription`). The
 * settlement of a completed payment writes it from that snapshot alone (`checkoutSubscriptionItems`): version 1
 * (`attribute_not_exists`) with `subscription.created`. Whoever settles the payment — the confirm, a retry of it,
 * or the reconciler — writes the same subscription, once, as the settlement itself is once; a declined payment
 * writes none.
 *
 * - Without a trial, the payment paid period 0: a full cycle from the payment (what was charged), anchored on it,
 *   `active`, `periodTransactionId` the payment.
 * - With a trial, the subscription is in its trial from the payment (what was charged was the setup fee, if any) or,
 *   with nothing due today, from the confirm; the trial's end is the plan's.
 * Records of the engine carry clock time (the organization's test clock on the sandbox): the snapshot keeps the
 * offset read at the claim, since the settlement reads nothing.
 *
 * The subscription's start is the renewal engine's own (`startBilling`, `afterCharge` and `changed` of
 * ./renewals.service.ts, the period ends of ./periods.rules.ts) for the two states a checkout starts in, written
 * here without the engine's calendar code (date-fns), which every confirm would otherwise carry:
 * `test/subscriptions/unit/checkout-subscriptions.test.ts` holds them equal to the engine's.
 */
import { v7 as uuidv7 } from 'uuid';
import type { Plan, IntervalUnit, Trial } from '../catalog/index.ts';
import type { Merchant } from '../domain/merchants.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { invoiceBuyerOf, transitionEvents } from './steps.service.ts';
import { chargeInvoice, checkoutInvoiceId, taxPercentOf } from '../invoicing/index.ts';
import * as repo from './subscriptions.repository.ts';
import { type Subscription, SubscriptionEntity } from './subscription.entity.ts';
import { newlyMade } from './subscriptions.rules.ts';
import { clockOf } from './test-clock.service.ts';

/** What a checkout keeps of the subscription its payment starts (in the claimed transaction's checkout breakdown). */
export interface CheckoutSubscription {
  /** The subscription as it will be, not yet written (`pending`, version 0). */
  subscription: Subscription;
  /** The plan's trial (from the start), or null. */
  trial: Trial | null;
  /** The organization's clock offset at the claim (ms ahead of real time; 0 outside the sandbox). */
  offsetMs: number;
  /** What the checkout's payment charges, as its invoice's lines (before tax) and the rate they were taxed at; null: nothing charged. */
  charged: CheckoutCharge | null;
}

/** A checkout payment's lines as its invoice shows them (minor units, before tax), and the rate each was taxed at (null: untaxed). */
export interface CheckoutCharge {
  /** `period`: the line pays the first period (its invoice names the period's dates, as a renewal's line does). */
  lines: Array<{ description: string; quantity: number; unitPriceMinor: number; period?: boolean }>;
  rate: string | null;
}

/** The clock offset a checkout's subscription runs on: the organization's test clock on the sandbox, else 0. */
export const checkoutClockOffset = async (organizationId: string): Promise<number> => (await clockOf(organizationId)).offsetMs;

export interface CheckoutSubscriptionInput {
  plan: Plan;
  quantity: number;
  customer: { id: string; name: string | null; email: string | null };
  /** The instrument renewals charge (the card the confirm saved, or the merchant API's saved instrument). */
  paymentInstrumentId: string | null;
  /**
   * What the first period is worth (minor units, before tax) when it is paid today: the plan's price × quantity less
   * the promo code's discount, what its unused time is credited and refunded at; null: not paid today (a trial).
   */
  periodValueMinor: number | null;
  /** Where the buyer said they are (the checkout's billing address): every charge of the subscription is taxed there. */
  billingAddress: { country: string; state?: string | null | undefined; postalCode?: string | null | undefined };
  /** What the payment charges (null: nothing due today), for its invoice. */
  charged: CheckoutCharge | null;
  /** Real time of the claim. */
  now: string;
  offsetMs: number;
}

/** The subscription a checkout of the recurring `input.plan` starts: a new id, as it will be written (see the top). */
export function checkoutSubscription(organization: Merchant, input: CheckoutSubscriptionInput): CheckoutSubscription {
  const { plan } = input;
  const interval = plan.recurringInterval;
  if (!interval) throw new Error(`Plan ${plan.id} is not recurring`);
  const at = new Date(Date.parse(input.now) + input.offsetMs).toISOString();
  const cycle = { unit: interval.unit, length: interval.length };
  return {
    subscription: {
      id: uuidv7(),
      organizationId: organization.id,
      customerId: input.customer.id,
      customerName: input.customer.name,
      customerEmail: input.customer.email,
      paymentInstrumentId: input.paymentInstrumentId,
      isAutoPay: input.paymentInstrumentId !== null,
      name: plan.name,
      currency: plan.currency,
      priceMinor: plan.price * input.quantity,
      cycle,
      anchorInstruction: interval.periodAnchorInstruction,
      items: [
        { planId: plan.id, planName: plan.name, quantity: input.quantity, unitPriceMinor: plan.price, formula: plan.formula, currency: plan.currency, cycle },
      ],
      ...newlyMade(),
      periodValueMinor: input.periodValueMinor,
      startAt: at,
      trialEndAt: plan.trial ? cycleEnd(at, plan.trial) : null,
      isTrialOnly: plan.isTrialOnly && plan.trial !== null,
      anchor: null,
      billingAddress: {
        country: input.billingAddress.country.toUpperCase(),
        state: input.billingAddress.state?.toUpperCase() || null,
        postalCode: input.billingAddress.postalCode || null,
      },
      orderId: null,
      isTestData: organization.mode === 'test',
      createdAt: at,
      updatedAt: at,
      version: 0,
      dueAt: null,
    },
    trial: plan.trial,
    offsetMs: input.offsetMs,
    charged: input.charged,
  };
}

/** A snapshot as it was stored (a map in the transaction item) read back. */
function snapshotOf(stored: object): CheckoutSubscription {
  const s = stored as Record<string, unknown>;
  const trial = s.trial as { unit: Trial['unit']; length: unknown } | null | undefined;
  const charged = s.charged as { lines: Array<Record<string, unknown>>; rate: string | null } | null | undefined;
  return {
    subscription: SubscriptionEntity.parse(s.subscription as Record<string, unknown>),
    trial: trial ? { unit: trial.unit, length: Number(trial.length) } : null,
    offsetMs: Number(s.offsetMs ?? 0),
    charged: charged
      ? {
          lines: charged.lines.map((l) => ({
            description: String(l.description),
            quantity: Number(l.quantity),
            unitPriceMinor: Number(l.unitPriceMinor),
            period: l.period === true,
          })),
          rate: charged.rate ?? null,
        }
      : null,
  };
}

/**
 * The paid invoice of the checkout payment `transactionId` that the snapshot's subscription started with (its first
 * period, or a trial's setup fee), issued when it is paid at `paidAt` (real time) as the engine issues a charge's:
 * each line taxed at the rate the checkout charged, so its total is the payment. None when nothing was charged, or a
 * snapshot from before checkouts kept what they charged.
 */
export async function checkoutSubscriptionInvoice(organization: Merchant, stored: object, paidAt: string, transactionId: string): Promise<TransactItem[]> {
  const { subscription: s, offsetMs, charged } = snapshotOf(stored);
  if (!charged) return [];
  const at = new Date(Date.parse(paidAt) + offsetMs).toISOString();
  const percent = charged.rate === null ? undefined : taxPercentOf(charged.rate);
  // The first period the payment paid: a full cycle from it, as the subscription's start writes it.
  const span = `${at.slice(0, 10)} to ${cycleEnd(at, s.cycle).slice(0, 10)}`;
  return [
    await chargeInvoice(
      organization,
      {
        id: checkoutInvoiceId(transactionId),
        customerId: s.customerId,
        buyer: invoiceBuyerOf(s),
        currency: s.currency,
        items: charged.lines.map(({ period, ...l }) => ({
          ...l,
          ...(period ? { description: `${l.description} (${span})` } : {}),
          ...(percent === undefined ? {} : { taxRate: percent }),
        })),
        paidAt: at,
        dueAt: at,
      },
      at,
    ),
  ];
}

/**
 * The end of one cycle (or trial) of `unit` × `length` from `start` (ISO): periods.rules.ts's `trialEnd`, and the end
 * of period 0 of a series anchored on `start`. Days and weeks are exact (86,400 s days); months and years are
 * calendar months in UTC on `start`'s day (the month's last day when it is shorter), at `start`'s time of day.
 */
function cycleEnd(start: string, { unit, length }: { unit: IntervalUnit; length: number }): string {
  if (!Number.isSafeInteger(length) || length < 1) throw new RangeError(`length must be an integer from 1 to ${Number.MAX_SAFE_INTEGER}, got ${length}`);
  const date = new Date(start);
  if (Number.isNaN(date.getTime())) throw new RangeError(`start must be an ISO 8601 instant with an offset, got ${JSON.stringify(start)}`);
  if (unit === 'day' || unit === 'week') return new Date(date.getTime() + length * (unit === 'week' ? 7 : 1) * 86_400_000).toISOString();
  if (unit !== 'month' && unit !== 'year') throw new RangeError(`unknown interval unit ${String(unit)}`);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + length * (unit === 'year' ? 12 : 1));
  const lastDay = new Date(date.getTime());
  lastDay.setUTCMonth(lastDay.getUTCMonth() + 1, 0);
  date.setUTCDate(Math.min(day, lastDay.getUTCDate()));
  return date.toISOString();
}

/**
 * How many days (of 86,400 s) before a monthly or yearly renewal its reminder falls due: periods.rules.ts's
 * `REMINDER_DAYS_AHEAD`, not imported from it, as importing that module brings date-fns's `UTCDate` in.
 */
const REMINDER_DAYS_AHEAD = 7;

/**
 * When the engine first has something to do for a subscription a checkout started (its `nextDueAt`; such a
 * subscription has no scheduled end and no pause yet): the trial's end; else the renewal reminder of a monthly or
 * yearly cycle (unless already sent), or the renewal itself.
 */
function firstDueAt(s: Subscription): string | null {
  if (s.status === 'trial') return s.trialEndAt;
  const renewal = s.periodEnd!;
  if (s.cycle.unit === 'day' || s.cycle.unit === 'week' || s.remindedFor.includes(renewal)) return renewal;
  return new Date(Date.parse(renewal) - REMINDER_DAYS_AHEAD * 86_400_000).toISOString();
}

/**
 * The items that write the snapshot's subscription as it starts at `startedAt` (real time: the payment's record, or
 * the confirm when nothing was charged), paid by `transactionId` (null: nothing charged), with
 * `subscription.created`. Version 1, written only if it does not exist.
 */
export function checkoutSubscriptionItems(organization: Merchant, stored: object, startedAt: string, transactionId: string | null): TransactItem[] {
  const { subscription: pending, trial, offsetMs, charged } = snapshotOf(stored);
  const at = new Date(Date.parse(startedAt) + offsetMs).toISOString();
  let changes: Partial<Subscription>;
  if (trial) {
    changes = { status: 'trial', startAt: at, trialEndAt: cycleEnd(at, trial), activatedAt: at };
  } else {
    // The payment paid a full cycle from now (what was charged), also for a plan anchored on a day: the plan's
    // anchor applies from the next period the engine starts (after a pause, a reactivation). Period 0 of a series
    // anchored now.
    const { unit, length } = pending.cycle;
    const periodEnd = cycleEnd(at, pending.cycle);
    changes = {
      anchor: { at, unit, length, dayOfMonth: new Date(at).getUTCDate() },
      startAt: at,
      status: 'active',
      periodIndex: 0,
      periodNumber: 1,
      // Its invoice is the checkout payment's (`checkoutSubscriptionInvoice`, written with it).
      periodInvoiceId: transactionId && charged ? checkoutInvoiceId(transactionId) : null,
      periodStart: at,
      periodEnd,
      pastDue: null,
      creditMinor: Math.max(0, pending.creditMinor - pending.priceMinor),
      activatedAt: pending.activatedAt ?? at,
      periodTransactionId: transactionId,
      periodChargeIds: [],
      // What it was paid at (a promo code's discount taken off), else its price.
      periodValueMinor: pending.periodValueMinor ?? pending.priceMinor,
      remindedFor: pending.remindedFor.filter((r) => r > periodEnd).concat(pending.remindedFor.includes(periodEnd) ? [periodEnd] : []),
    };
  }
  const started = { ...pending, ...changes, updatedAt: at, version: pending.version + 1 };
  const next = { ...started, dueAt: firstDueAt(started) };
  const indexAt = next.dueAt ? new Date(Date.parse(next.dueAt) - offsetMs).toISOString() : null;
  return [repo.saveSubscriptionItem(next, indexAt), ...transitionEvents(organization, pending, next, at)];
}
