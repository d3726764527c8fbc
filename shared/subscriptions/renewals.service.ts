/**
 * The renewal engine: what happens to a subscription as time passes. One function, `runDue`, applies every action
 * due for a subscription up to a given time, in order (start, trial end, renewal, retry, reminder, scheduled end,
 * cancellation after failed dunning: `dueAction` in ./subscriptions.rules.ts decides). The deployed sweeper and
 * worker, and the sandbox test clock, all run it; only `now` differs.
 *
 * Each action is one step (./steps.service.ts): decided here on the version read, written by one transaction on
 * that version, its charge claimed in that transaction under a key named by what it pays — a period
 * (`renewal:<subscription>:<period number>`, `:retry-<n>` for the n-th retry of a declined one) or a pause's end
 * (`resume:<pause>`). Of two workers running the same step, one claims it and the other waits for its answer; a
 * step decided on a version that moved on writes nothing and charges nothing.
 */
import { v7 as uuidv7 } from 'uuid';
import { DomainError } from '../domain/errors.ts';
import { chargeInvoiceId, openChargeInvoice } from '../invoicing/index.ts';
import { afterPaymentIn } from '../money/index.ts';
import type { Merchant } from '../domain/merchants.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { customerMail, mailAbout, type SubscriptionMail } from './subscription.mails.ts';
import { logger } from '../platform/observability.ts';
import { anchorFor, boundary, dunningSchedule, prorate, secondsBetween } from './periods.rules.ts';
import * as repo from './subscriptions.repository.ts';
import { getChange, newChangeRecord, putChange } from './changes.repository.ts';
import type { Cancellation } from './changes.rules.ts';
import type { Subscription } from './subscription.entity.ts';
import { dueAction, dueInstants, nextDueAt, type DueAction, type PastDue } from './subscriptions.rules.ts';
import {
  apply,
  type Applied,
  type ChargeSpec,
  chargedWith,
  changed,
  commit,
  type Decision,
  engineState,
  finishPending,
  taxedSpec,
  unpaidInvoiceVoid,
} from './steps.service.ts';

/** Most steps one run applies to one subscription (a test clock advance of two years of daily periods is ~730). */
const MAX_STEPS = 1_000;

/** The bounds of period `p` of `s` (−1: the short period from the start to the first anchored boundary). */
function periodBounds(s: Subscription, p: number): { start: string; end: string } {
  const anchor = s.anchor!;
  return p === -1 ? { start: s.startAt, end: anchor.at } : { start: boundary(anchor, p), end: boundary(anchor, p + 1) };
}

/** What period `p` costs at `priceMinor` a cycle (default: the items' price), prorated to the second for the short first period. */
export function periodAmount(s: Subscription, p: number, priceMinor = s.priceMinor): number {
  if (p !== -1) return priceMinor;
  const anchor = s.anchor!;
  return prorate(priceMinor, secondsBetween(s.startAt, anchor.at), secondsBetween(anchor.at, boundary(anchor, 1)));
}

/** What the paid period of `s` is worth (see `periodValueMinor`). */
export const periodValue = (s: Subscription): number => s.periodValueMinor ?? periodAmount(s, s.periodIndex!);

/** The value of the paid period's time from `at` to its end, prorated to the second (0 once it has ended). */
export function unusedValue(s: Subscription, at: string): number {
  if (!s.periodStart || !s.periodEnd || s.periodEnd <= at) return 0;
  const from = at < s.periodStart ? s.periodStart : at;
  return prorate(periodValue(s), secondsBetween(from, s.periodEnd), secondsBetween(s.periodStart, s.periodEnd));
}

/**
 * A cancellation at the next renewal ends the subscription when its paid period ends. When a new period starts
 * before then (an items reset, a pause that ends), the scheduled end moves to the new period's end, on the
 * subscription and on the cancellation. A cancellation at a date of its own keeps its date.
 */
export async function followScheduledEnd(s: Subscription, periodEnd: string, at: string): Promise<{ changes: Partial<Subscription>; extra: TransactItem[] }> {
  if (!s.openCancellationId || !s.endAt) return { changes: {}, extra: [] };
  const c = await getChange('SUBCANCEL', s.organizationId, s.openCancellationId);
  if (c?.status !== 'confirmed' || c.cancelAt || c.churnTimePolicy !== 'at-next-renewal') return { changes: {}, extra: [] };
  return { changes: { endAt: periodEnd }, extra: [putChange('SUBCANCEL', { ...c, churnedAt: periodEnd, updatedAt: at })] };
}

/** What a period is charged at: its price, and the credit that pays part of it. */
interface PeriodPrice {
  fullMinor: number;
  creditMinor: number;
}

/** What period `p` of `s` is charged at now: its items' price, less the credit carried (at most that price). */
function periodPrice(s: Subscription, p: number): PeriodPrice {
  const fullMinor = periodAmount(s, p);
  return { fullMinor, creditMinor: Math.min(s.creditMinor, fullMinor) };
}

/**
 * What charging period `p` of `s` (its number `n`; attempt 0, or the n-th retry) is: the key
 * `renewal:<id>:<n>[:retry-<attempt>]`, the price less the credit carried, and its invoice (one line per item; the
 * short first period prorated).
 */
export function periodSpec(s: Subscription, p: number, n: number, key = `renewal:${s.id}:${n}`): ChargeSpec {
  const { start, end } = periodBounds(s, p);
  const { fullMinor: full, creditMinor: credit } = periodPrice(s, p);
  const span = `${start.slice(0, 10)} to ${end.slice(0, 10)}`;
  const parts = p === -1 ? splitOver(s, full) : null;
  return {
    key,
    transactionId: uuidv7(),
    invoiceId: chargeInvoiceId(key),
    // A retry pays the invoice its declined charge issued.
    invoiceExists: /:retry-\d+$/.test(key),
    description: `${s.name}: ${span}`,
    amountMinor: full - credit,
    lines: [
      ...s.items.map((it, i) =>
        parts
          ? { description: `${it.planName} × ${it.quantity} (short first period, ${span})`, quantity: 1, unitPriceMinor: parts[i]! }
          : { description: `${it.planName} (${span})`, quantity: it.quantity, unitPriceMinor: it.unitPriceMinor },
      ),
      ...(credit > 0 ? [{ description: 'Credit applied', quantity: 1, unitPriceMinor: -credit }] : []),
    ],
  };
}

/**
 * The n-th retry of a declined charge (`key`, `<its key>:retry-<n>`) of period `p` (number `n`) of `s`: what the open
 * invoice of that charge says, as it was issued — its lines and their tax, so an items change, a credit or a tax rate
 * since then applies from the next charge, not to this one — with the period's price it charges (its lines before
 * credit) and the credit it applies. Null when that invoice is not open.
 */
async function retrySpec(s: Subscription, p: number, n: number, key: string): Promise<{ spec: ChargeSpec; price: PeriodPrice } | null> {
  const invoice = await openChargeInvoice(s.organizationId, chargeInvoiceId(key));
  if (!invoice) return null;
  const lines = invoice.items.map((i) => ({ description: i.description, quantity: i.quantity, unitPriceMinor: i.unitPriceMinor, taxRate: i.taxRate }));
  return {
    spec: {
      ...periodSpec(s, p, n, key),
      // What the declined charge was for, not what the items are now (a description kept from before: the items').
      ...(s.pastDue?.description ? { description: s.pastDue.description } : {}),
      lines,
      amountMinor: invoice.totalAmountMinor,
      taxMinor: invoice.totalTaxMinor,
    },
    price: {
      fullMinor: invoice.items.reduce((sum, i) => sum + Math.max(0, i.amountMinor), 0),
      creditMinor: -invoice.items.reduce((sum, i) => sum + Math.min(0, i.amountMinor), 0),
    },
  };
}

/** Each item's part of `total` (in proportion to its price; the rounding remainder on the first line). */
function splitOver(s: Subscription, total: number): number[] {
  const parts = s.items.map((it) => (s.priceMinor ? Math.floor((it.unitPriceMinor * it.quantity * total) / s.priceMinor) : 0));
  parts[0]! += total - parts.reduce((a, b) => a + b, 0);
  return parts;
}

/**
 * The state after period `p` (number `n`) of `s` was charged under `spec` (attempt 0 or the n-th retry) at `at`, at
 * `price`: paid, the period is the paid one, worth that price, and the credit it applied is used up; declined, past
 * due (the period's retries keyed by its number).
 */
export function afterCharge(
  s: Subscription,
  p: number,
  n: number,
  attempt: number,
  paid: boolean,
  spec: ChargeSpec,
  at: string,
  price = periodPrice(s, p),
): Partial<Subscription> {
  if (paid) {
    const { start, end } = periodBounds(s, p);
    return {
      status: 'active',
      periodIndex: p,
      periodNumber: n,
      periodStart: start,
      periodEnd: end,
      pastDue: null,
      creditMinor: Math.max(0, s.creditMinor - price.creditMinor),
      activatedAt: s.activatedAt ?? at,
      periodTransactionId: spec.amountMinor > 0 ? spec.transactionId : null,
      periodChargeIds: [],
      periodInvoiceId: spec.invoiceId,
      periodValueMinor: price.fullMinor,
      remindedFor: s.remindedFor.filter((r) => r > end).concat(s.remindedFor.includes(end) ? [end] : []),
    };
  }
  return {
    status: 'past-due',
    periodNumber: Math.max(s.periodNumber, n),
    pastDue: {
      periodIndex: p,
      periodNumber: n,
      key: spec.key.replace(/:retry-\d+$/, ''),
      declinedAt: s.pastDue?.declinedAt ?? at,
      retries: attempt,
      // Told once, of the first decline: a retry declined too changes nothing the mail said.
      tellCustomer: attempt === 0 || (s.pastDue?.tellCustomer ?? false),
    },
    activatedAt: s.activatedAt ?? at,
  };
}

/**
 * A step that charges period `p` (number `n`, attempt `attempt`) of `billing` (`s` as it bills) under `spec`, at
 * `price`, with `also` either way.
 */
function chargingPeriod(
  billing: Subscription,
  p: number,
  n: number,
  attempt: number,
  at: string,
  also: Partial<Subscription> = {},
  spec = periodSpec(billing, p, n),
  price = periodPrice(billing, p),
): Decision {
  return {
    changes: { ...also, ...afterCharge(billing, p, n, attempt, true, spec, at, price) },
    extra: [],
    charge: { spec, declined: { changes: { ...also, ...afterCharge(billing, p, n, attempt, false, spec, at, price) }, extra: [] } },
  };
}

/** Starts billing at `from`: the anchor of the periods, and the first period (−1 when `from` is before the anchor). */
export function startBilling(s: Subscription, from: string): { s: Subscription; p: number } {
  // An anchor fixed ahead of the start (a `renewalTime`, a reactivation's `renewalAt`) is kept.
  const anchor =
    s.anchor && s.anchor.at >= from ? s.anchor : anchorFor(from, { unit: s.cycle.unit, length: s.cycle.length, periodAnchorInstruction: s.anchorInstruction });
  const withAnchor = { ...s, anchor, startAt: from };
  return { s: withAnchor, p: anchor.at > from ? -1 : 0 };
}

/**
 * The open cancellation and pause of a subscription that ends at `at`, closed: `completed` with the time it ended;
 * and the invoice of its unpaid charge (past due), voided (`unpaidInvoiceVoid`).
 */
async function closeChanges(s: Subscription, at: string): Promise<TransactItem[]> {
  const [cancellation, pause, unpaid] = await Promise.all([
    s.openCancellationId ? getChange('SUBCANCEL', s.organizationId, s.openCancellationId) : null,
    s.pause ? getChange('SUBPAUSE', s.organizationId, s.pause.id) : null,
    unpaidInvoiceVoid(s, at),
  ]);
  return [
    ...(cancellation ? [putChange('SUBCANCEL', { ...cancellation, status: 'completed', churnedAt: at, updatedAt: at })] : []),
    ...(pause ? [putChange('SUBPAUSE', { ...pause, status: 'completed', endAt: pause.endAt ?? at, updatedAt: at })] : []),
    ...unpaid,
  ];
}

/** The cancellation the system records when dunning runs out: `billing-failure`, completed at once. */
async function systemCancellation(s: Subscription, at: string): Promise<TransactItem[]> {
  const closed = await closeChanges({ ...s, openCancellationId: null }, at);
  const record: Cancellation = {
    ...newChangeRecord(s, uuidv7(), at),
    proratedInvoiceId: null,
    appliedInvoiceId: null,
    cancelledBy: 'system',
    reason: 'billing-failure',
    description: `Payment failed for ${s.delinquencyDays} days after the renewal of ${s.pastDue ? periodBounds(s, s.pastDue.periodIndex).start.slice(0, 10) : 'the period'}.`,
    prorated: false,
    status: 'completed',
    cancelledAt: at,
    churnedAt: at,
    churnTimePolicy: 'now',
    cancelAt: null,
    lineItems: [],
    refundIds: [],
  };
  // An open cancellation that had not taken effect yet is superseded (revoked).
  const open = s.openCancellationId ? await getChange('SUBCANCEL', s.organizationId, s.openCancellationId) : null;
  return [...closed, putChange('SUBCANCEL', record), ...(open ? [putChange('SUBCANCEL', { ...open, status: 'revoked', updatedAt: at })] : [])];
}

/** What `action` does to `s` at `at` (decided, not written: the mails it tells the customer with are written with it). */
async function decide(organization: Merchant, s: Subscription, action: DueAction, at: string): Promise<Decision> {
  const n = s.periodNumber + 1;
  switch (action) {
    case 'start': {
      if (s.trialEndAt && s.trialEndAt > s.startAt) return { changes: { status: 'trial', activatedAt: s.activatedAt ?? at }, extra: [] };
      const started = startBilling(s, s.startAt);
      // A first charge declined at the start: the subscription never starts, and no invoice is issued for it.
      const spec = { ...periodSpec(started.s, started.p, n), invoiceIfDeclined: false };
      const paid = chargingPeriod(started.s, started.p, n, 0, at, { anchor: started.s.anchor }, spec);
      return { ...paid, charge: { spec, declined: { changes: { anchor: started.s.anchor, periodNumber: n, status: 'incomplete', endedAt: at }, extra: [] } } };
    }
    case 'trial-end': {
      if (s.isTrialOnly) return { changes: { status: 'completed', endedAt: at }, extra: [] };
      const started = startBilling(s, s.trialEndAt!);
      return chargingPeriod(started.s, started.p, n, 0, at, { anchor: started.s.anchor, startAt: s.startAt });
    }
    case 'renew':
      return chargingPeriod(s, (s.periodIndex ?? -1) + 1, n, 0, at);
    case 'retry': {
      // The n-th retry of the declined charge (a renewal's or a resume's): `<its key>:retry-<n>`, paying its invoice
      // as issued, at the price and credit the invoice was issued with.
      const pastDue = s.pastDue!;
      const attempt = pastDue.retries + 1;
      const key = `${pastDue.key}:retry-${attempt}`;
      const issued = await retrySpec(s, pastDue.periodIndex, pastDue.periodNumber, key);
      const spec = issued?.spec ?? periodSpec(s, pastDue.periodIndex, pastDue.periodNumber, key);
      const decided = chargingPeriod(s, pastDue.periodIndex, pastDue.periodNumber, attempt, at, {}, spec, issued?.price);
      // A period that starts before a scheduled end (a resume's, declined and now paid) moves it, as when paid at once.
      if (!s.endAt || decided.changes.periodStart! >= s.endAt) return decided;
      const scheduled = await followScheduledEnd(s, decided.changes.periodEnd!, at);
      return { ...decided, changes: { ...decided.changes, ...scheduled.changes }, extra: [...decided.extra, ...scheduled.extra] };
    }
    case 'cancel-delinquent': {
      const told = customerMail(s, delinquentCancellationMail(organization, s, at), at);
      return { changes: { status: 'canceled', endedAt: at, pastDue: null, pause: null }, extra: [...(await systemCancellation(s, at)), ...told] };
    }
    case 'end':
      return { changes: { status: 'canceled', endedAt: at, pastDue: null, openCancellationId: null, pause: null }, extra: await closeChanges(s, at) };
    case 'pause': {
      const [pause, unpaid] = await Promise.all([getChange('SUBPAUSE', s.organizationId, s.pause!.id), unpaidInvoiceVoid(s, at, 'subscription_paused')]);
      // The unused part of the paid period is kept as credit for the period that starts when the pause ends; a
      // declined period being retried is no longer charged, so its invoice is voided.
      const credit = s.status === 'active' ? unusedValue(s, at) : 0;
      return {
        changes: { status: 'paused', pastDue: null, creditMinor: s.creditMinor + credit },
        extra: [...(pause ? [putChange('SUBPAUSE', { ...pause, status: 'active' as const, updatedAt: at })] : []), ...unpaid],
      };
    }
    case 'resume':
      return resumeDecision(s, at);
    case 'tell-declined': {
      const owed = s.pastDue!;
      return { changes: { pastDue: { ...owed, tellCustomer: false } }, extra: customerMail(s, declinedMail(organization, s, owed), at) };
    }
    case 'remind': {
      const renewal = s.periodEnd!;
      return {
        changes: { remindedFor: [...s.remindedFor, renewal], renewalRemindersSentAt: [...s.renewalRemindersSentAt, at] },
        // What it will charge, where the buyer is now, as the renewal will tax it.
        extra: customerMail(s, reminderMail(organization, { ...s, billingAddress: (await chargedWith(s)).where }, renewal, n), at),
      };
    }
  }
}

/** The mail that reminds the customer of `s` of its renewal at `renewal` (its period number `n`): what it will charge, as it will charge it. */
function reminderMail(organization: Merchant, s: Subscription, renewal: string, n: number): SubscriptionMail {
  // Its period's price less credit, with its tax.
  const spec = taxedSpec(s, periodSpec(s, (s.periodIndex ?? -1) + 1, n), renewal);
  const data = { ...mailAbout(organization, s), renewsOn: renewal.slice(0, 10), amountMinor: spec.amountMinor, taxMinor: spec.taxMinor ?? 0 };
  return { template: 'subscription.reminder', data };
}

/**
 * What `s`, past due on `owed`, owes: the declined charge as it was taxed and invoiced, its tax included (a record from
 * before that was kept: its period priced by the items now, taxed at the decline).
 */
export function owedCharge(s: Subscription, owed: PastDue): { amountMinor: number; taxMinor: number } {
  if (owed.amountMinor !== undefined) return { amountMinor: owed.amountMinor, taxMinor: owed.taxMinor ?? 0 };
  const spec = taxedSpec(s, periodSpec(s, owed.periodIndex, owed.periodNumber), owed.declinedAt);
  return { amountMinor: spec.amountMinor, taxMinor: spec.taxMinor ?? 0 };
}

/**
 * The mail that tells the customer of `s` its payment `owed` failed: what it came to, when it is tried again and when
 * the subscription ends if it never goes through, and the billing portal where the card can be replaced.
 */
function declinedMail(organization: Merchant, s: Subscription, owed: PastDue): SubscriptionMail {
  const { retries, cancelAt } = dunningSchedule(owed.declinedAt, s.delinquencyDays);
  const next = retries[owed.retries];
  const data = {
    ...mailAbout(organization, s),
    ...owedCharge(s, owed),
    declinedAt: owed.declinedAt,
    nextTry: next ? next.slice(0, 10) : null,
    cancelAt: cancelAt.slice(0, 10),
  };
  return { template: 'subscription.payment-failed', data };
}

/**
 * The mail that tells the customer of `s` dunning cancelled it at `at`: the payment that never went through, that
 * nothing more is charged or owed (its invoice is voided), and the billing portal.
 */
function delinquentCancellationMail(organization: Merchant, s: Subscription, at: string): SubscriptionMail {
  const owed = s.pastDue!;
  const data = { ...mailAbout(organization, s), ...owedCharge(s, owed), cancelledOn: at.slice(0, 10), declinedOn: owed.declinedAt.slice(0, 10) };
  return { template: 'subscription.cancelled-unpaid', data };
}

/**
 * The end of the pause of `s` (at its `endAt`, else at `at`): the pause completed and, unless a trial runs on, a new
 * period from then, anchored then (or on the plan's anchor day after), charged under `resume:<pause>` — one key per
 * pause, whoever ends it and whenever.
 */
export async function resumeDecision(s: Subscription, at: string): Promise<Decision> {
  const pause = await getChange('SUBPAUSE', s.organizationId, s.pause!.id);
  const from = s.pause!.endAt ?? at;
  const closed = pause ? [putChange('SUBPAUSE', { ...pause, status: 'completed', endAt: from, updatedAt: at })] : [];
  // A trial runs on through a pause: resumed before its end, the subscription is in its trial again (never
  // charged); a trial-only subscription whose trial ended during the pause is completed.
  if (s.trialEndAt && from < s.trialEndAt) return { changes: { status: 'trial', pause: null }, extra: closed };
  if (s.isTrialOnly) return { changes: { status: 'completed', pause: null, endedAt: from }, extra: closed };
  const started = startBilling({ ...s, pause: null }, from);
  const n = s.periodNumber + 1;
  const spec = periodSpec(started.s, started.p, n, `resume:${s.pause!.id}`);
  const also = { anchor: started.s.anchor, pause: null, remindedFor: [] };
  const decided = chargingPeriod(started.s, started.p, n, 0, at, also, spec);
  // A cancellation at the next renewal follows the new period's end (when it is paid).
  const scheduled = await followScheduledEnd(s, decided.changes.periodEnd!, at);
  return {
    changes: { ...decided.changes, ...scheduled.changes },
    extra: [...scheduled.extra, ...closed],
    charge: { spec, declined: { changes: decided.charge!.declined.changes, extra: closed } },
  };
}

/**
 * Applies `action` to `s` at `at` as one step (./steps.service.ts `apply`): the subscription after it and the
 * charge's outcome (when it charged). When another change got there first, answers the subscription as that change
 * left it (no outcome); null when it no longer exists.
 */
export async function applyStep(organization: Merchant, s: Subscription, action: DueAction, at: string, offsetMs: number): Promise<Applied | null> {
  const decision = await decide(organization, s, action, at);
  try {
    return await apply(organization, s, decision, at, offsetMs);
  } catch (e) {
    if (!(e instanceof DomainError && (e.code === 'subscription.conflict' || e.code === 'idempotency.in_progress'))) throw e;
    const reread = await repo.getSubscription(s.organizationId, s.id);
    return reread ? { subscription: reread } : null;
  }
}

/**
 * The organization as a step of `s` leaves it: after a payment, its currency's balance sharded (`afterPaymentIn`). A
 * run of several steps on the organization record it read at its start takes each step's, so that only its first
 * payment in a currency registers it.
 */
export const organizationAfter = (organization: Merchant, s: Subscription, applied: Applied | null): Merchant =>
  applied?.outcome?.paid && applied.outcome.transactionId ? afterPaymentIn(organization, s.currency) : organization;

export interface RunOptions {
  /** When each step happens, from the instant it fell due (default: `now`, the run's time). */
  at?: (dueAt: string) => string;
  /**
   * Write its place on the due index even when nothing was due: the worker (the sweep's lease on it ends) and the
   * test clock (its places move with the offset). An API run writes nothing when nothing is due.
   */
  reindex?: boolean;
  /** No step is started after this instant (real time, ms): the run answers the subscription as it is then. */
  until?: number;
}

/**
 * Applies every action due for `s` up to `now` (clock time), oldest first. `offsetMs`: the organization's test clock
 * offset (0 outside the sandbox). Answers the subscription as it is after (re-read whenever another writer got there
 * first). Whoever runs it — the worker, the test clock, or an API request (what falls due before the change it makes)
 * — writes the mails a step tells the customer with in that step's transaction; the mail sender sends them.
 */
export async function runDue(organization: Merchant, s: Subscription, now: string, offsetMs: number, options: RunOptions = {}): Promise<Subscription> {
  const at = options.at ?? (() => now);
  let current = s;
  // The organization as this run's payments leave it (a first payment in a currency shards its balance).
  let org = organization;
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    if (current.pending) {
      // A step's charge is being made (or its request died): finish it first, or leave it to whoever is.
      current = await finishPending(org, current);
      if (current.pending) return current;
      continue;
    }
    const state = engineState(current);
    const action = dueAction(state, now);
    if (!action) {
      // Nothing due: make sure its place on the due index says when it next is (a sweeper's lease ends here).
      if (current.dueAt !== nextDueAt(state) || (steps === 0 && options.reindex)) {
        const placed = changed(current, {}, current.updatedAt);
        if (await commit(org, current, placed, offsetMs)) return placed;
        return (await repo.getSubscription(current.organizationId, current.id)) ?? current;
      }
      return current;
    }
    if (options.until !== undefined && Date.now() >= options.until) return current;
    const applied = await applyStep(org, current, action, at(dueInstants(state)[action]!), offsetMs);
    if (!applied) return current;
    org = organizationAfter(org, current, applied);
    current = applied.subscription;
  }
  logger.warn('a subscription had more steps due than one run applies; the next run goes on', { subscriptionId: s.id });
  return current;
}
