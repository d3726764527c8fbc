/**
 * The renewal engine: what happens to a subscription as time passes. One function, `runDue`, applies every action
 * due for a subscription up to a given time, in order (start, trial end, renewal, retry, reminder, scheduled end,
 * cancellation after failed dunning: `dueAction` in ./subscriptions.rules.ts decides). The deployed sweeper and
 * worker, and the sandbox test clock, all run it; only `now` differs.
 *
 * Each step is safe to repeat and to run twice at once:
 * 1. a charge is made under the key `renewal:<subscriptionId>:<periodStart>` (`:retry-<n>` for the n-th retry of a
 *    declined period), so a repeat answers the first charge's result and never charges again;
 * 2. the period's invoice has an id fixed by (subscription, period start), so it is written once;
 * 3. the new state is written on the condition that the subscription's version is still the one read, together
 *    with its webhook event: of two workers, one writes it, and the other reads the new state and finds nothing due.
 */
import { createHash } from 'node:crypto';
import { ConflictError, DomainError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { transactWrite, cancellationReasons } from '../platform/db/client.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import type { Mail } from '../platform/mail/mailer.ts';
import { logger } from '../platform/observability.ts';
import { findCustomer } from '../customers/customers.service.ts';
import { findPaymentInstrument, type PaymentInstrument } from '../customers/payment-instruments.service.ts';
import { chargeInvoice, chargeInvoicePaid } from '../invoicing/invoices.service.ts';
import { chargeSubscription } from '../payments/transactions.service.ts';
import { toMajorUnits } from '../domain/money.ts';
import { anchorFor, boundary, dunningSchedule, prorate, secondsBetween } from './periods.rules.ts';
import * as repo from './subscriptions.repository.ts';
import { getChange, putChange } from './changes.repository.ts';
import type { Cancellation, PauseRecord } from './changes.rules.ts';
import { v7 as uuidv7 } from 'uuid';
import type { Subscription } from './subscriptions.repository.ts';
import { dueAction, dueInstants, isLocallyActive, nextDueAt, type DueAction, type EngineState } from './subscriptions.rules.ts';

/** Most steps one run applies to one subscription (a test clock advance of two years of daily periods is ~730). */
const MAX_STEPS = 1_000;

export const engineState = (s: Subscription): EngineState => ({
  status: s.status,
  startAt: s.startAt,
  trialEndAt: s.trialEndAt,
  isTrialOnly: s.isTrialOnly,
  cycle: s.cycle,
  anchor: s.anchor,
  periodIndex: s.periodIndex,
  periodEnd: s.periodEnd,
  pastDue: s.pastDue,
  delinquencyDays: s.delinquencyDays,
  remindedFor: s.remindedFor,
  endAt: s.endAt,
  pause: s.pause,
});

/** Where `s` goes on the due index: its next due instant moved from clock time to real time (null: off it). */
export function indexAtOf(s: Subscription, offsetMs: number): string | null {
  const due = nextDueAt(engineState(s));
  return due ? new Date(Date.parse(due) - offsetMs).toISOString() : null;
}

/** `s` changed by `changes` at `at`: the next version, with its next due instant. */
export function changed(s: Subscription, changes: Partial<Subscription>, at: string): Subscription {
  const next = { ...s, ...changes, updatedAt: at, version: s.version + 1 };
  return { ...next, dueAt: nextDueAt(engineState(next)) };
}

/** The subscription's webhook events for the change from `before` to `after` (each transition once). */
export function transitionEvents(organization: Merchant, before: Subscription, after: Subscription, at: string): TransactItem[] {
  const items: TransactItem[] = [];
  const common = { subscriptionId: after.id, externalMembershipId: null, orderId: after.orderId, customerId: after.customerId };
  // Created: it became locally active, for the first time or again (a reactivation sets a new `activatedAt`).
  if (after.activatedAt && after.activatedAt !== before.activatedAt) items.push(outboxEvent('subscription.created', organization, common, at));
  if (isLocallyActive(before.status) && (after.status === 'canceled' || after.status === 'completed')) {
    const atPeriodEnd = before.endAt !== null && (before.endAt === before.periodEnd || (before.status === 'trial' && before.endAt === before.trialEndAt));
    items.push(outboxEvent('subscription.cancelled', organization, { ...common, cancelAtPeriodEnd: after.status === 'completed' || atPeriodEnd }, at));
  }
  return items;
}

/**
 * Writes `next` (the version after `before`) with its events and other items, on the due index (real time).
 * Answers false when another change of the subscription got there first.
 */
export async function commit(organization: Merchant, before: Subscription, next: Subscription, offsetMs: number, extra: TransactItem[] = []) {
  try {
    await transactWrite([
      repo.saveSubscriptionItem(next, indexAtOf(next, offsetMs)),
      ...transitionEvents(organization, before, next, next.updatedAt),
      ...extra,
    ]);
    return true;
  } catch (e) {
    const reasons = cancellationReasons(e);
    if (reasons?.[0] === 'ConditionalCheckFailed') return false;
    throw e;
  }
}

/** What a payment for a change of `s` was priced on: when any of it moves, the payment no longer fits. */
const billingOf = (s: Subscription) =>
  JSON.stringify([s.status, s.items, s.priceMinor, s.periodStart, s.periodEnd, s.creditMinor, s.pause, s.openCancellationId, s.endAt]);

/**
 * Writes a change a payment was just made for (an items change, a reactivation), with the payment's invoice: on the
 * version the payment was keyed by or — when only the engine's bookkeeping moved the subscription meanwhile (its
 * index place, a reminder) — on the version found. When its billing changed meanwhile, the change no longer fits:
 * the payment is kept as credit on the subscription (its next charges are that much less) with its invoice, and
 * 409 `subscription.changed` answers (a retry is priced afresh).
 */
export async function commitPaid(
  organization: Merchant,
  s: Subscription,
  changes: Partial<Subscription>,
  outcome: ChargeOutcome,
  amountMinor: number,
  at: string,
  offsetMs: number,
  extra: TransactItem[] = [],
): Promise<Subscription> {
  let current = s;
  for (let attempt = 1; attempt <= 5; attempt++) {
    const next = changed(current, changes, at);
    if (await commit(organization, current, next, offsetMs, [...outcome.invoice, ...extra])) return next;
    const reread = await repo.getSubscription(s.organizationId, s.id);
    if (!reread) break;
    if (billingOf(reread) !== billingOf(s)) {
      // Kept as credit, on whatever version is there now.
      for (let kept = 1; kept <= 5 && current; kept++) {
        current = kept === 1 ? reread : (await repo.getSubscription(s.organizationId, s.id))!;
        if (
          await commit(
            organization,
            current,
            changed(current, { creditMinor: current.creditMinor + (outcome.paid ? amountMinor : 0) }, at),
            offsetMs,
            outcome.invoice,
          )
        )
          break;
      }
      throw new ConflictError(
        'subscription.changed',
        'The subscription changed while this was being paid for; the payment is kept as credit for its next charges. Read it again and retry.',
      );
    }
    current = reread;
  }
  throw new ConflictError('subscription.busy', 'The subscription kept changing while this was written; try again.');
}

/**
 * After a declined charge that changes nothing else (an API request answered 402): raises the subscription's version,
 * so the next attempt — keyed by the version — is a new charge rather than a replay of the decline.
 */
export async function passDeclined(organization: Merchant, s: Subscription, at: string, offsetMs: number): Promise<void> {
  await commit(organization, s, changed(s, {}, at), offsetMs);
}

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
  const c = await getChange<Cancellation>('SUBCANCEL', s.organizationId, s.openCancellationId);
  if (c?.status !== 'confirmed' || c.cancelAt || c.churnTimePolicy !== 'at-next-renewal') return { changes: {}, extra: [] };
  return { changes: { endAt: periodEnd }, extra: [putChange('SUBCANCEL', { ...c, churnedAt: periodEnd, updatedAt: at })] };
}

/** The invoice id of a subscription's period: fixed by the subscription and the period's start. */
export const periodInvoiceId = (subscriptionId: string, periodStart: string): string =>
  `inv_${createHash('sha256').update(`${subscriptionId}:${periodStart}`).digest('hex').slice(0, 32)}`;

/** The instrument a charge of `s` uses: its own, else its customer's primary one; null when neither can pay. */
async function instrumentOf(s: Subscription): Promise<PaymentInstrument | null> {
  if (s.paymentInstrumentId) {
    const own = await findPaymentInstrument(s.organizationId, s.paymentInstrumentId);
    if (own && !own.deletedAt && own.creditCard) return own;
  }
  const customer = await findCustomer(s.organizationId, s.customerId);
  const primary = customer?.primaryPaymentInstrument;
  if (!primary) return null;
  const instrument = await findPaymentInstrument(s.organizationId, primary.id);
  return instrument && !instrument.deletedAt && instrument.creditCard && instrument.customerId === s.customerId ? instrument : null;
}

/**
 * What a charge came to, and `invoice`: the items that write its invoice (new, or an open one marked paid), for the
 * transaction that records the outcome.
 */
export type ChargeOutcome = ChargeResult & { invoice: TransactItem[] };
type ChargeResult = { paid: true; transactionId: string | null } | { paid: false; transactionId: string | null; reason: string };

/** One charge of a subscription: its key, what it is for, its amount and its invoice's lines. */
export interface ChargeSpec {
  key: string;
  invoiceId: string;
  description: string;
  amountMinor: number;
  lines: Array<{ description: string; quantity: number; unitPriceMinor: number }>;
  /** The invoice was written by an earlier attempt (a declined period being retried): a paid retry marks it paid. */
  invoiceExists?: boolean;
  /** A declined charge that changes nothing (an API request answered 402) has no invoice: false. Default true. */
  invoiceIfDeclined?: boolean;
}

/**
 * Charges `spec` on the subscription's instrument and issues its invoice (paid, or open until the end of dunning).
 * An amount of 0 (all paid by credit) charges nothing and is paid. A charge whose outcome is not known (the processor
 * did not answer) throws: the step is run again later, under the same key.
 */
export async function chargeOnce(organization: Merchant, s: Subscription, spec: ChargeSpec, at: string): Promise<ChargeOutcome> {
  let outcome: ChargeResult;
  const instrument = spec.amountMinor > 0 ? await instrumentOf(s) : null;
  if (spec.amountMinor === 0) outcome = { paid: true, transactionId: null };
  else if (!instrument) outcome = { paid: false, transactionId: null, reason: 'no_payment_instrument' };
  else {
    try {
      const answer = await chargeSubscription(organization, {
        key: spec.key,
        subscriptionId: s.id,
        customer: { id: s.customerId, name: s.customerName, email: s.customerEmail },
        instrument,
        amountMinor: spec.amountMinor,
        currency: s.currency,
        description: spec.description,
      });
      outcome = { paid: true, transactionId: (answer.body as { data: { id: string } }).data.id };
    } catch (e) {
      if (!(e instanceof DomainError) || (e.code !== 'payment.declined' && e.code !== 'payment.processor_error')) throw e;
      const details = (e.details ?? {}) as { transactionId?: string; declineCode?: string; errorCode?: string };
      outcome = { paid: false, transactionId: details.transactionId ?? null, reason: details.declineCode ?? details.errorCode ?? e.code };
    }
  }
  const invoice = spec.invoiceExists
    ? outcome.paid
      ? [chargeInvoicePaid(spec.invoiceId, at)]
      : []
    : !outcome.paid && spec.invoiceIfDeclined === false
      ? []
      : [
          await chargeInvoice(
            organization,
            {
              id: spec.invoiceId,
              customerId: s.customerId,
              buyer: {
                name: s.customerName ?? s.customerEmail ?? s.customerId,
                address: null,
                city: null,
                country: null,
                zip: null,
                phoneNumber: null,
                state: null,
              },
              currency: s.currency,
              items: spec.lines,
              paidAt: outcome.paid ? at : null,
              dueAt: outcome.paid ? at : dunningSchedule(at, s.delinquencyDays).cancelAt,
            },
            at,
          ),
        ];
  return { ...outcome, invoice };
}

/** Each item's part of `total` (in proportion to its price; the rounding remainder on the first line). */
function splitOver(s: Subscription, total: number): number[] {
  const parts = s.items.map((it) => (s.priceMinor ? Math.floor((it.unitPriceMinor * it.quantity * total) / s.priceMinor) : 0));
  parts[0]! += total - parts.reduce((a, b) => a + b, 0);
  return parts;
}

/**
 * What charging period `p` of `s` is (attempt 0, or the n-th retry): the key `renewal:<id>:<periodStart>[:retry-<n>]`,
 * the price less the credit carried, and its invoice (one line per item; the short first period prorated).
 */
export function periodSpec(s: Subscription, p: number, attempt: number): ChargeSpec {
  const { start, end } = periodBounds(s, p);
  const full = periodAmount(s, p);
  const credit = Math.min(s.creditMinor, full);
  const span = `${start.slice(0, 10)} to ${end.slice(0, 10)}`;
  const parts = p === -1 ? splitOver(s, full) : null;
  return {
    key: `renewal:${s.id}:${start}${attempt ? `:retry-${attempt}` : ''}`,
    invoiceId: periodInvoiceId(s.id, start),
    invoiceExists: attempt > 0,
    description: `${s.name}: ${span}`,
    amountMinor: full - credit,
    lines: [
      ...s.items.map((it, n) =>
        parts
          ? { description: `${it.planName} × ${it.quantity} (short first period, ${span})`, quantity: 1, unitPriceMinor: parts[n]! }
          : { description: `${it.planName} (${span})`, quantity: it.quantity, unitPriceMinor: it.unitPriceMinor },
      ),
      ...(credit > 0 ? [{ description: 'Credit applied', quantity: 1, unitPriceMinor: -credit }] : []),
    ],
  };
}

/** Charges period `p` of `s` (see `periodSpec`). */
export const chargePeriod = (organization: Merchant, s: Subscription, p: number, attempt: number, at: string): Promise<ChargeOutcome> =>
  chargeOnce(organization, s, periodSpec(s, p, attempt), at);

/** The state after period `p` was charged with `outcome` (attempt 0 or the n-th retry) at `at`. */
export function afterCharge(s: Subscription, p: number, attempt: number, outcome: ChargeOutcome, at: string): Partial<Subscription> {
  if (outcome.paid) {
    const { start, end } = periodBounds(s, p);
    return {
      status: 'active',
      periodIndex: p,
      periodStart: start,
      periodEnd: end,
      pastDue: null,
      creditMinor: Math.max(0, s.creditMinor - periodAmount(s, p)),
      activatedAt: s.activatedAt ?? at,
      periodTransactionId: outcome.transactionId,
      periodValueMinor: periodAmount(s, p),
      remindedFor: s.remindedFor.filter((r) => r > end).concat(s.remindedFor.includes(end) ? [end] : []),
    };
  }
  return {
    status: 'past-due',
    pastDue: { periodIndex: p, declinedAt: s.pastDue?.declinedAt ?? at, retries: attempt },
    activatedAt: s.activatedAt ?? at,
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

/** The open cancellation and pause of a subscription that ends at `at`, closed: `completed` with the time it ended. */
async function closeChanges(s: Subscription, at: string): Promise<TransactItem[]> {
  const [cancellation, pause] = await Promise.all([
    s.openCancellationId ? getChange<Cancellation>('SUBCANCEL', s.organizationId, s.openCancellationId) : null,
    s.pause ? getChange<PauseRecord>('SUBPAUSE', s.organizationId, s.pause.id) : null,
  ]);
  return [
    ...(cancellation ? [putChange('SUBCANCEL', { ...cancellation, status: 'completed', churnedAt: at, updatedAt: at })] : []),
    ...(pause ? [putChange('SUBPAUSE', { ...pause, status: 'completed', endAt: pause.endAt ?? at, updatedAt: at })] : []),
  ];
}

/** The cancellation the system records when dunning runs out: `billing-failure`, completed at once. */
async function systemCancellation(s: Subscription, at: string): Promise<TransactItem[]> {
  const closed = await closeChanges({ ...s, openCancellationId: null }, at);
  const record: Cancellation = {
    id: uuidv7(),
    organizationId: s.organizationId,
    subscriptionId: s.id,
    isTestData: s.isTestData,
    createdAt: at,
    updatedAt: at,
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
    refundId: null,
  };
  // An open cancellation that had not taken effect yet is superseded (revoked).
  const open = s.openCancellationId ? await getChange<Cancellation>('SUBCANCEL', s.organizationId, s.openCancellationId) : null;
  return [...closed, putChange('SUBCANCEL', record), ...(open ? [putChange('SUBCANCEL', { ...open, status: 'revoked', updatedAt: at })] : [])];
}

/** One step of `s` at `at`: the new state and what the write carries besides. */
async function step(
  organization: Merchant,
  s: Subscription,
  action: DueAction,
  at: string,
  mail?: Mailer,
): Promise<{ changes: Partial<Subscription>; outcome?: ChargeOutcome; extra?: TransactItem[] }> {
  switch (action) {
    case 'start': {
      if (s.trialEndAt && s.trialEndAt > s.startAt) return { changes: { status: 'trial', activatedAt: s.activatedAt ?? at } };
      const started = startBilling(s, s.startAt);
      // A first charge declined at the start changes nothing but its status: no invoice is issued for it.
      const outcome = await chargeOnce(organization, started.s, { ...periodSpec(started.s, started.p, 0), invoiceIfDeclined: false }, at);
      // A first charge declined at the start: the subscription never starts.
      if (!outcome.paid) return { changes: { anchor: started.s.anchor, status: 'incomplete', endedAt: at }, outcome, extra: outcome.invoice };
      return { changes: { anchor: started.s.anchor, ...afterCharge(started.s, started.p, 0, outcome, at) }, outcome, extra: outcome.invoice };
    }
    case 'trial-end': {
      if (s.isTrialOnly) return { changes: { status: 'completed', endedAt: at } };
      const started = startBilling(s, s.trialEndAt!);
      const outcome = await chargePeriod(organization, started.s, started.p, 0, at);
      return {
        changes: { anchor: started.s.anchor, startAt: s.startAt, ...afterCharge(started.s, started.p, 0, outcome, at) },
        outcome,
        extra: outcome.invoice,
      };
    }
    case 'renew': {
      const p = (s.periodIndex ?? -1) + 1;
      const outcome = await chargePeriod(organization, s, p, 0, at);
      return { changes: afterCharge(s, p, 0, outcome, at), outcome, extra: outcome.invoice };
    }
    case 'retry': {
      const pastDue = s.pastDue!;
      const attempt = pastDue.retries + 1;
      const outcome = await chargePeriod(organization, s, pastDue.periodIndex, attempt, at);
      return { changes: afterCharge(s, pastDue.periodIndex, attempt, outcome, at), outcome, extra: outcome.invoice };
    }
    case 'cancel-delinquent':
      return { changes: { status: 'canceled', endedAt: at, pastDue: null, pause: null }, extra: await systemCancellation(s, at) };
    case 'end':
      return { changes: { status: 'canceled', endedAt: at, pastDue: null, openCancellationId: null, pause: null }, extra: await closeChanges(s, at) };
    case 'pause': {
      const pause = await getChange<PauseRecord>('SUBPAUSE', s.organizationId, s.pause!.id);
      // The unused part of the paid period is kept as credit for the period that starts when the pause ends.
      const credit = s.status === 'active' ? unusedValue(s, at) : 0;
      return {
        changes: { status: 'paused', pastDue: null, creditMinor: s.creditMinor + credit },
        extra: pause ? [putChange('SUBPAUSE', { ...pause, status: 'active', updatedAt: at })] : [],
      };
    }
    case 'resume': {
      // A new period starts when the pause ends, anchored then (or on the plan's anchor day after).
      const pause = await getChange<PauseRecord>('SUBPAUSE', s.organizationId, s.pause!.id);
      const closed = pause ? [putChange('SUBPAUSE', { ...pause, status: 'completed', endAt: pause.endAt ?? at, updatedAt: at })] : [];
      // The period starts at the pause's end, not at the worker's time: two workers resuming it use one key.
      const from = s.pause!.endAt ?? at;
      // A trial runs on through a pause: resumed before its end, the subscription is in its trial again (never
      // charged); a trial-only subscription whose trial ended during the pause is completed.
      if (s.trialEndAt && from < s.trialEndAt) return { changes: { status: 'trial', pause: null }, extra: closed };
      if (s.isTrialOnly) return { changes: { status: 'completed', pause: null, endedAt: from }, extra: closed };
      const started = startBilling({ ...s, pause: null }, from);
      const outcome = await chargePeriod(organization, started.s, started.p, 0, at);
      const charged = afterCharge(started.s, started.p, 0, outcome, at);
      const scheduled = outcome.paid ? await followScheduledEnd(s, charged.periodEnd!, at) : { changes: {}, extra: [] };
      return {
        changes: { anchor: started.s.anchor, pause: null, remindedFor: [], ...charged, ...scheduled.changes },
        outcome,
        extra: [...outcome.invoice, ...scheduled.extra, ...closed],
      };
    }
    case 'remind': {
      const renewal = s.periodEnd!;
      if (s.customerEmail && mail) {
        await mail(
          {
            to: s.customerEmail,
            subject: `Your ${s.name} subscription renews on ${renewal.slice(0, 10)}`,
            text: `Your subscription "${s.name}" renews on ${renewal.slice(0, 10)} for ${toMajorUnits(s.priceMinor, s.currency)} ${s.currency}. Your saved card will be charged then.`,
          },
          at,
        );
      }
      return { changes: { remindedFor: [...s.remindedFor, renewal], renewalRemindersSentAt: [...s.renewalRemindersSentAt, at] } };
    }
  }
}

/**
 * Applies `action` to `s` at `at` and writes the result: the subscription after it and the charge's outcome (when it
 * charged). When another writer changed the subscription first, answers it as that writer left it (no outcome);
 * null when it no longer exists.
 */
export async function applyStep(
  organization: Merchant,
  s: Subscription,
  action: DueAction,
  at: string,
  offsetMs: number,
  mail?: Mailer,
): Promise<{ subscription: Subscription; outcome?: ChargeOutcome } | null> {
  const { changes, outcome, extra } = await step(organization, s, action, at, mail);
  const next = changed(s, changes, at);
  if (await commit(organization, s, next, offsetMs, extra)) return { subscription: next, ...(outcome ? { outcome } : {}) };
  const reread = await repo.getSubscription(s.organizationId, s.id);
  return reread ? { subscription: reread } : null;
}

/** Sends a mail (the platform's mailer: shared/platform/mail/mailer.ts `sendMail`). */
export type Mailer = (mail: Mail, at: string) => Promise<void>;

export interface RunOptions {
  /** When each step happens, from the instant it fell due (default: `now`, the run's time). */
  at?: (dueAt: string) => string;
  /** The mailer reminders are sent with; without one, reminders are left to a run that has it (the worker). */
  mail?: Mailer;
}

/**
 * Applies every action due for `s` up to `now` (clock time), oldest first. `offsetMs`: the organization's test clock
 * offset (0 outside the sandbox). Answers the subscription as it is after (re-read whenever another writer got there
 * first). The worker and the test clock send reminders (`mail`); the API's runs (what falls due before a change it
 * makes) leave them to the worker, so their functions carry no mailer.
 */
export async function runDue(organization: Merchant, s: Subscription, now: string, offsetMs: number, options: RunOptions = {}): Promise<Subscription> {
  const at = options.at ?? (() => now);
  let current = s;
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    const state = engineState(current);
    const action = dueAction(state, now, Boolean(options.mail));
    if (!action) {
      // Nothing due: make sure its place on the due index says when it next is (a sweeper's lease ends here).
      if (current.dueAt !== nextDueAt(state) || steps === 0) {
        const placed = changed(current, {}, current.updatedAt);
        if (await commit(organization, current, placed, offsetMs)) return placed;
        return (await repo.getSubscription(current.organizationId, current.id)) ?? current;
      }
      return current;
    }
    const applied = await applyStep(organization, current, action, at(dueInstants(state)[action]!), offsetMs, options.mail);
    if (!applied) return current;
    current = applied.subscription;
  }
  logger.warn('a subscription had more steps due than one run applies; the next run goes on', { subscriptionId: s.id });
  return current;
}
