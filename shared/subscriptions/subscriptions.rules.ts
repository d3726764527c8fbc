/**
 * Subscriptions: pure rules (no I/O). The statuses and which of them the webhooks call active, the limits, and
 * the engine's one decision: given a subscription and the time, what is due now (`dueAction`) and when it next
 * must look at it (`nextDueAt`). The periods themselves are counted by shared/subscriptions/periods.rules.ts.
 *
 * Statuses:
 * - `pending`: starts at `startAt` (in the future when created).
 * - `trial`: in its trial until `trialEndAt`; never charged (a trial-only subscription ends then, `completed`).
 * - `active`: its current period is paid; renews at `nextCharge`.
 * - `past-due`: a renewal was declined; retried on the dunning schedule until it is paid or the delinquency
 *   period runs out (then `canceled` by the system).
 * - `paused`: no renewal, reminder or retry until the pause ends.
 * - `canceled`: ended by a cancellation (or by the system after failed dunning).
 * - `completed`: a trial-only subscription whose trial ended.
 * - `incomplete`: its first charge was declined when it was created; it never started and never renews.
 *
 * The merchant webhooks' "local status active" is `trial`, `active`, `past-due` and `paused`: `subscription.created`
 * is sent when a subscription first enters one of them, `subscription.cancelled` when it leaves them for good.
 */
import type { IntervalUnit } from '../catalog/plan-vocabulary.schemas.ts';
import type { PausedBy } from './changes.rules.ts';
import type { PeriodAnchor } from './periods.rules.ts';
import { dunningSchedule, reminderAt } from './periods.rules.ts';

export const subscriptionStatuses = ['pending', 'trial', 'active', 'past-due', 'paused', 'canceled', 'completed', 'incomplete'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** The statuses the merchant webhooks call active (a live membership). */
export const locallyActive: readonly SubscriptionStatus[] = ['trial', 'active', 'past-due', 'paused'];
export const isLocallyActive = (s: SubscriptionStatus): boolean => locallyActive.includes(s);

export const SUBSCRIPTION_LIMITS = {
  /** The spec's `customerId` and `paymentInstrumentId` (and every id in a body). */
  id: 50,
  /** Items of one subscription. */
  items: 20,
  /** Units of one item. */
  quantity: 10_000,
  search: 255,
} as const;

export const SUBSCRIPTION_SORTS = ['createdAt', 'updatedAt', 'nextCharge'] as const;
export type SubscriptionSort = (typeof SUBSCRIPTION_SORTS)[number];

/** Days a past-due subscription is retried before the system cancels it (the record's `delinquencyPeriod`). */
export const DEFAULT_DELINQUENCY_DAYS = 8;

/**
 * The engine's part of a subscription that has not started (a new one, or one reactivated to start again): no
 * period, nothing paid, owed, scheduled or reminded of yet.
 */
export const notStarted = () => ({
  status: 'pending' as const,
  periodIndex: null,
  periodStart: null,
  periodEnd: null,
  endAt: null,
  endedAt: null,
  openCancellationId: null,
  pause: null,
  pastDue: null,
  periodTransactionId: null,
  periodChargeIds: [] as string[],
  periodValueMinor: null,
  remindedFor: [] as string[],
  activatedAt: null,
});

/** The engine's part of a new subscription: not started, no period numbered yet, no credit, the default dunning, no step pending. */
export const newlyMade = () => ({
  ...notStarted(),
  periodNumber: 0,
  periodInvoiceId: null,
  delinquencyDays: DEFAULT_DELINQUENCY_DAYS,
  renewalRemindersSentAt: [] as string[],
  creditMinor: 0,
  pending: null,
});

export interface BillingCycle {
  unit: IntervalUnit;
  length: number;
}

/** The cycle as the record names it (`bilingCycle`, spelled so): `days`, `weeks`, `months`, `years`. */
export const cycleView = (c: BillingCycle) => ({ unit: `${c.unit}s`, length: c.length });

/**
 * A declined charge being retried: which period (its index on the anchor, and its number), since when, how many
 * retries were made, and what it came to.
 */
export interface PastDue {
  periodIndex: number;
  /** The period's number (see `periodNumber`): its retries are keyed by it. */
  periodNumber: number;
  /** The declined charge's key (a renewal's or a resume's): its retries are `<key>:retry-<n>`, and pay its invoice. */
  key: string;
  declinedAt: string;
  retries: number;
  /**
   * What the declined charge came to, its tax included, and that tax: what each retry charges (its invoice as
   * issued, whatever the items are now). Absent on a record from before they were kept.
   */
  amountMinor?: number;
  taxMinor?: number;
  /** What the declined charge was for (its description): what its retries are, whatever the items are now. */
  description?: string;
  /** The customer is yet to be told the payment failed (a mail, written by the step `tell-declined`). */
  tellCustomer?: boolean;
}

/** A pause of a subscription, as the engine reads it: from `effectiveAt` until `endAt` (null: until it is deleted). */
export interface Pause {
  id: string;
  effectiveAt: string;
  endAt: string | null;
  /** Who paused it, as its record says (absent on a pause made before it was kept here: its record says). */
  by?: PausedBy | undefined;
}

/** What the engine reads to decide (a subset of the record). */
export interface EngineState {
  status: SubscriptionStatus;
  startAt: string;
  trialEndAt: string | null;
  isTrialOnly: boolean;
  cycle: BillingCycle;
  anchor: PeriodAnchor | null;
  /** The paid period's index on the anchor (null before the first charge). */
  periodIndex: number | null;
  /** End of the paid period (= the next renewal), null before the first charge. */
  periodEnd: string | null;
  pastDue: PastDue | null;
  delinquencyDays: number;
  /** Period ends already reminded of. */
  remindedFor: readonly string[];
  /** When a scheduled cancellation ends it (at a period end or a date of its own); null: none. */
  endAt: string | null;
  pause: Pause | null;
}

export type DueAction = 'start' | 'trial-end' | 'renew' | 'retry' | 'end' | 'cancel-delinquent' | 'remind' | 'tell-declined' | 'pause' | 'resume';

/** The instant each action of `s` falls due (absent: not applicable now). */
export function dueInstants(s: EngineState): Partial<Record<DueAction, string>> {
  const due: Partial<Record<DueAction, string>> = {};
  switch (s.status) {
    case 'pending':
      due.start = s.startAt;
      break;
    case 'trial':
      if (s.endAt && (!s.trialEndAt || s.endAt <= s.trialEndAt)) due.end = s.endAt;
      else if (s.trialEndAt) due['trial-end'] = s.trialEndAt;
      break;
    case 'active':
      if (s.endAt && s.periodEnd && s.endAt <= s.periodEnd) due.end = s.endAt;
      else if (s.periodEnd) {
        due.renew = s.periodEnd;
        const remind = reminderAt(s.periodEnd, s.cycle.unit, s.cycle.length);
        if (remind && !s.remindedFor.includes(s.periodEnd)) due.remind = remind;
      }
      break;
    case 'past-due':
      if (s.endAt) due.end = s.endAt;
      if (s.pastDue) {
        if (s.pastDue.tellCustomer) due['tell-declined'] = s.pastDue.declinedAt;
        const { retries, cancelAt } = dunningSchedule(s.pastDue.declinedAt, s.delinquencyDays);
        const next = retries[s.pastDue.retries];
        if (next && next < cancelAt) due.retry = next;
        else due['cancel-delinquent'] = cancelAt;
      }
      break;
    case 'paused':
      if (s.endAt) due.end = s.endAt;
      if (s.pause?.endAt) due.resume = s.pause.endAt;
      break;
    default:
      break;
  }
  // A pending pause of a subscription that runs starts at its effective time.
  if (s.pause && s.status !== 'paused' && (s.status === 'active' || s.status === 'trial' || s.status === 'past-due')) due.pause = s.pause.effectiveAt;
  return due;
}

/** The earliest instant at which something is due for `s`, or null when nothing ever will be (ended, paused). */
export function nextDueAt(s: EngineState): string | null {
  const instants = Object.values(dueInstants(s));
  return instants.length ? instants.sort()[0]! : null;
}

/** When a past-due subscription is charged next: its next retry, unless it ends or pauses first (null: none is left). */
export function nextRetryAt(s: EngineState): string | null {
  const { retry, end, pause } = dueInstants(s);
  return retry && !(end && end <= retry) && !(pause && pause <= retry) ? retry : null;
}

/** The order in which actions due at the same instant run: ending first, then pausing, then charging, then mailing. */
const precedence: readonly DueAction[] = ['end', 'cancel-delinquent', 'pause', 'resume', 'start', 'trial-end', 'renew', 'retry', 'tell-declined', 'remind'];

/** The action due at `now` (the earliest due; ties by `precedence`), or null when nothing is due yet. */
export function dueAction(s: EngineState, now: string): DueAction | null {
  const due = dueInstants(s);
  const ready = precedence.filter((a) => due[a] !== undefined && due[a]! <= now);
  if (!ready.length) return null;
  return ready.reduce((best, a) => (due[a]! < due[best]! ? a : best));
}

/** The sum of the items' prices (minor units): unit price × quantity each (`fixed-fee`). */
export const priceOf = (items: ReadonlyArray<{ unitPriceMinor: number; quantity: number }>): number =>
  items.reduce((sum, it) => sum + it.unitPriceMinor * it.quantity, 0);
