/**
 * How a subscription changes: one step at a time. Every change — the engine's (start, trial end, renewal, retry,
 * pause, resume, scheduled end, end of dunning, reminder) and the API's (items, pauses, cancellations,
 * reactivations) — reads the subscription, decides with the pure rules what the step does (a `Decision`), and
 * writes it with ONE `TransactWriteItems` conditioned on the version it read (`apply`). Of two steps decided on one
 * version, one writes; the other is answered 409 `subscription.conflict` and writes nothing.
 *
 * Money moves only as part of a step that won:
 * - a step that charges claims its charge in its own transaction — the key named by what it pays
 *   (`renewal:<subscription>:<period number>[:retry-<n>]`, `resume:<pause>`, `items:<change>`,
 *   `reactivation:<reactivation>`), the transaction `sending` and the subscription's next version holding the step
 *   as `pending` (what it does when paid, and when declined). Only a claimed charge goes to the processor.
 * - the charge's settlement (shared/payments/charges.service.ts `recordCharge`) writes, in one transaction, the
 *   transaction, the ledger, the events, the period's invoice and the subscription's version after the step
 *   (`subscriptionChargesKind.settleItems`). The reconciler settles a claim whose request died the same way.
 * - while a step's charge is pending, every other change of the subscription is refused (409); a second worker
 *   running the same step finds the same key and waits for its answer.
 */
import { type Customer, findCustomer, findPaymentInstrument, type PaymentInstrument } from '../customers/index.ts';
import { ConflictError, DomainError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { buyerTaxAddress, taxPort } from '../domain/tax.ts';
import { chargeInvoice, chargeInvoiceId, chargeInvoicePaid, voidedChargeInvoice, taxAmountOf, taxPercentOf } from '../invoicing/index.ts';
import {
  resumeCharge,
  type ChargeKind,
  chargeSubscription,
  SUBSCRIPTION_CHARGES_OPERATION,
  subscriptionChargeAnswer,
  subscriptionChargeFingerprint,
} from '../payments/index.ts';
import { failedParts, transactWrite, type NamedParts } from '../platform/db/transactions.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { outboxEvent } from '../platform/events/outbox.ts';
import { sellerOfRecord } from '../platform/seller-of-record.ts';
import { sellerOfRecordText } from '../platform/mail/mail-text.ts';
import { customerMail, mailAbout, type SubscriptionMail } from './subscription.mails.ts';
import { logger } from '../platform/observability.ts';
import { dunningSchedule } from './periods.rules.ts';
import * as repo from './subscriptions.repository.ts';
import type { ChargeSpec, Effect, PendingStep, Subscription, TaxAddress } from './subscription.entity.ts';

export type { ChargeSpec, Effect } from './subscription.entity.ts';
import { dueInstants, isLocallyActive, nextDueAt, type EngineState } from './subscriptions.rules.ts';

/** 409: the subscription changed between the read and the write of this request, which did nothing. */
export const subscriptionConflict = () =>
  new ConflictError(
    'subscription.conflict',
    'Retry: the subscription changed while this request was being decided, and nothing was done (no charge, no refund). Read it again, then retry.',
  );

/**
 * Whether `s` was changed later than `now` (clock time), a time read before `s` was: then a test clock advance, or a
 * request that read the clock after, wrote it in between, and a change decided at `now` would reach back before the
 * subscription's present (a pause or a cancellation dated before the period it is in, a proration at an instant
 * outside its period).
 */
export const changedAfter = (s: Subscription, now: string): boolean => s.updatedAt > now;

/** `s`, read by a request after it read its clock's `now`, to decide a change on: 409 `subscription.conflict` when `changedAfter`. */
export function decidableAt<S extends Subscription | null>(s: S, now: string): S {
  if (s && changedAfter(s, now)) throw subscriptionConflict();
  return s;
}

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

/** How long a pending step keeps its subscription off the sweep (then the sweep queues it, and the worker finishes it). */
const PENDING_LEASE_MS = 300_000;

/** Where `s` goes on the due index: its next due instant moved from clock time to real time (null: off it). */
export function indexAtOf(s: Subscription, offsetMs: number): string | null {
  if (s.pending) return new Date(Date.now() + PENDING_LEASE_MS).toISOString();
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
    // At its period's (or trial's) end: the scheduled end is what ended it — it had come, and nothing that ends it at
    // once (dunning's cancellation) was due before it, however late the step runs. Dunning's cancellation is at once
    // even when an end at the period's end was scheduled too.
    const due = dueInstants(engineState(before));
    const delinquentAt = due['cancel-delinquent'];
    const scheduledEndCame =
      due.end !== undefined && after.endedAt !== null && due.end <= after.endedAt && (delinquentAt === undefined || due.end <= delinquentAt);
    const atPeriodEnd = scheduledEndCame && (before.endAt === before.periodEnd || (before.status === 'trial' && before.endAt === before.trialEndAt));
    items.push(outboxEvent('subscription.cancelled', organization, { ...common, cancelAtPeriodEnd: after.status === 'completed' || atPeriodEnd }, at));
  }
  return items;
}

/** The parts of a step's transaction: the subscription's version (its condition decides the race) and the rest. */
type StepPart = 'subscription' | 'rest';

/** The named parts of the transaction that writes `next` (the version after `before`) with its events and `extra`. */
export const stepParts = (organization: Merchant, before: Subscription, next: Subscription, offsetMs: number, extra: TransactItem[] = []) =>
  [
    ['subscription', [repo.saveSubscriptionItem(next, indexAtOf(next, offsetMs))]],
    ['rest', [...transitionEvents(organization, before, next, next.updatedAt), ...extra]],
  ] as const satisfies NamedParts<StepPart>;

/**
 * Writes `next` (the version after `before`) with its events and other items, on the due index (real time), in one
 * transaction conditioned on `before`'s version (and on no step pending). Answers false when another change of the
 * subscription got there first; a subscription whose step is pending is never written (false at once).
 */
export async function commit(organization: Merchant, before: Subscription, next: Subscription, offsetMs: number, extra: TransactItem[] = []) {
  if (before.pending) return false;
  const parts = stepParts(organization, before, next, offsetMs, extra);
  try {
    await transactWrite(parts);
    return true;
  } catch (e) {
    if (failedParts(e, parts)?.has('subscription')) return false;
    throw e;
  }
}

/** As `commit`, the loser answered 409 `subscription.conflict`. */
export async function commitOrConflict(organization: Merchant, before: Subscription, next: Subscription, offsetMs: number, extra: TransactItem[] = []) {
  if (!(await commit(organization, before, next, offsetMs, extra))) throw subscriptionConflict();
  return next;
}

/** A decided step: its effect (paid, when it charges) and, when it charges, the charge and its effect when declined. */
export interface Decision extends Effect {
  charge?: { spec: ChargeSpec; declined: Effect };
}

/** What a step's charge came to (none: 0 to pay, all by credit). */
export type Outcome = { paid: true; transactionId: string | null } | { paid: false; transactionId: string | null; reason: string };

/** The tax of `amountMinor` (before tax) at `rate` (an exact decimal; null: untaxed), rounded once as an invoice line's. */
export const taxAt = (amountMinor: number, rate: string | null): number => (rate === null ? 0 : taxAmountOf(amountMinor, taxPercentOf(rate)));

/**
 * The charge of `spec` with its tax: every line taxed at the rate in force at `at` (clock time: the charge's date) where
 * the buyer of `s` is (its billing address), each line's tax rounded once by the invoices' rule, so the charge is
 * exactly its invoice's total (untaxed when `s` has no address: a subscription from before addresses were kept). The
 * tax port refuses a place it has no rate for (422 `checkout.tax_unavailable`).
 */
export function taxedSpec(s: Subscription, spec: ChargeSpec, at: string): ChargeSpec {
  // Taxed already: a retry paying its invoice as issued.
  if (spec.taxMinor !== undefined) return spec;
  const rate = taxRateOf(s, at);
  if (rate === null) return spec;
  const percent = taxPercentOf(rate);
  const lines = spec.lines.map((l) => ({ description: l.description, quantity: l.quantity, unitPriceMinor: l.unitPriceMinor, taxRate: percent }));
  const taxMinor = lines.reduce((n, l) => n + taxAt(l.quantity * l.unitPriceMinor, rate), 0);
  return { ...spec, lines, amountMinor: spec.amountMinor + taxMinor, taxMinor };
}

const taxable = (address: TaxAddress, currency: string): boolean => {
  try {
    taxPort.quote({ lines: [], currency, address, at: new Date() });
    return true;
  } catch (e) {
    if (e instanceof DomainError) return false;
    throw e;
  }
};

/**
 * The tax rate (an exact decimal) of a charge of `s` at `at` (clock time) where its buyer is; null: `s` has no
 * address.
 */
export const taxRateOf = (s: Subscription, at: string): string | null =>
  s.billingAddress ? taxPort.quote({ lines: [], currency: s.currency, address: s.billingAddress, at: new Date(at) }).rate : null;

/**
 * For a subscription that stops owing its unpaid charge at `at` (the declined charge it is past due on, whose invoice
 * stays open through dunning): the item voiding that invoice, for `reason` — `subscription_ended` when it ends,
 * `subscription_paused` when a pause starts (a paused subscription is not retried, and its pause's end starts a new
 * period); none when it owes nothing.
 */
export const unpaidInvoiceVoid = (
  s: Subscription,
  at: string,
  reason: 'subscription_ended' | 'subscription_paused' = 'subscription_ended',
): Promise<TransactItem[]> => (s.pastDue ? voidedChargeInvoice(s.organizationId, chargeInvoiceId(s.pastDue.key), at, reason) : Promise.resolve([]));

/**
 * What a charge of `s` uses and where it is taxed: its own instrument, else its customer's primary one (null when
 * neither can pay; its own read beside the customer, the primary one after them); and where its buyer is now
 * — the card's billing country, else the customer's address (either may have changed since the last charge), else
 * where `s` was taxed last (its checkout's address). A subscription stored before addresses were kept stays untaxed.
 */
export async function chargedWith(s: Subscription): Promise<Charged> {
  const read = (id: string | null | undefined) => (id ? findPaymentInstrument(s.organizationId, id) : null);
  const [own, customer] = await Promise.all([read(s.paymentInstrumentId), findCustomer(s.organizationId, s.customerId)]);
  // The primary card read again only when it is another card than the subscription's own, which could not pay.
  const primary = customer?.primaryPaymentInstrument?.id;
  return chargedFrom(s, customer, own, () => (primary === s.paymentInstrumentId ? null : read(primary)));
}

/** What `chargedWith` answers. */
export interface Charged {
  instrument: PaymentInstrument | null;
  where: TaxAddress | null;
}

/**
 * `chargedWith` from records read already: `s`'s customer, its own card (null: none) and `primary`, which gives the
 * customer's primary card, asked only when the own one cannot pay.
 */
export async function chargedFrom(
  s: Subscription,
  customer: Customer | null,
  own: PaymentInstrument | null,
  primary: () => PaymentInstrument | null | Promise<PaymentInstrument | null>,
): Promise<Charged> {
  const usable = (i: PaymentInstrument | null) => (i && !i.deletedAt && i.creditCard && i.customerId === s.customerId ? i : null);
  const instrument = usable(own) ?? usable(await primary());
  // A place the platform cannot tax (a country it does not sell to) keeps the last charge's: the subscription is
  // still charged and taxed, never left unable to renew.
  const now = buyerTaxAddress(instrument?.billingAddress, customer?.address);
  const where = s.billingAddress && (now && taxable(now, s.currency) ? now : s.billingAddress);
  return { instrument, where };
}

/**
 * The buyer a subscription's invoices name: its customer (by name, else e-mail, else id), where its charges are taxed
 * (the country, state and postal code of its billing address: the place the invoice's tax is owed).
 */
export const invoiceBuyerOf = (s: Subscription) => ({
  name: s.customerName ?? s.customerEmail ?? s.customerId,
  address: null,
  city: null,
  country: s.billingAddress?.country ?? null,
  zip: s.billingAddress?.postalCode ?? null,
  phoneNumber: null,
  state: s.billingAddress?.state ?? null,
});

/** The items that write the invoice of `spec` after `outcome`: new (paid, or open until dunning ends), or an open one paid. */
async function invoiceItems(organization: Merchant, s: Subscription, spec: ChargeSpec, outcome: Outcome, at: string): Promise<TransactItem[]> {
  if (spec.invoiceExists) return outcome.paid ? [chargeInvoicePaid(spec.invoiceId, at)] : [];
  if (!outcome.paid && spec.invoiceIfDeclined === false) return [];
  return [
    await chargeInvoice(
      organization,
      {
        id: spec.invoiceId,
        customerId: s.customerId,
        buyer: invoiceBuyerOf(s),
        currency: s.currency,
        items: spec.lines,
        paidAt: outcome.paid ? at : null,
        dueAt: outcome.paid ? at : dunningSchedule(at, s.delinquencyDays).cancelAt,
      },
      at,
    ),
  ];
}

/** A step applied: the subscription after it (as the winner left it) and what its charge came to (when it charged). */
export interface Applied {
  subscription: Subscription;
  outcome?: Outcome;
}

/**
 * `decided` with its charge taxed at `at`; declined, the subscription past due owes that charge as taxed (what its
 * retries pay, and what the dashboard and the portal show as its next charge).
 */
function taxedDecision(s: Subscription, decided: Decision, at: string): Decision {
  if (!decided.charge) return decided;
  const spec = taxedSpec(s, decided.charge.spec, at);
  const { declined } = decided.charge;
  const owing = declined.changes.pastDue;
  const owed = owing
    ? {
        ...declined,
        changes: { ...declined.changes, pastDue: { ...owing, amountMinor: spec.amountMinor, taxMinor: spec.taxMinor ?? 0, description: spec.description } },
      }
    : declined;
  return { ...decided, charge: { spec, declined: owed } };
}

/**
 * Applies `decision`, decided on `s` at `at`, as one step (see the top of this module). A step with nothing to
 * charge (none, or 0 all paid by credit) is one conditional transaction; one with no instrument to charge takes
 * its declined effect. A step that charges claims the charge with its version, charges, and is settled with the
 * charge. Throws 409 `subscription.conflict` when another change got there first (nothing written, nothing
 * charged), and the charge engine's errors a recorded outcome does not answer (502 unreachable: the reconciler
 * settles it). A repeat of a step another request is charging (same key) waits for its answer and answers it.
 */
export async function apply(organization: Merchant, s: Subscription, decided: Decision, at: string, offsetMs: number): Promise<Applied> {
  // Decided before tax; charged (and invoiced) with it, where the buyer is now.
  if (s.pending) throw subscriptionConflict();
  // A charge paid all by credit too: its invoice names where the buyer is now.
  const found = decided.charge ? await chargedWith(s) : { instrument: null, where: s.billingAddress };
  const { instrument } = found;
  // Taxed, invoiced and kept where the buyer is now, charged or declined; a retry, taxed already (its invoice as
  // issued), keeps the place the declined charge was taxed at, which its invoice names.
  const where = decided.charge?.spec.taxMinor === undefined ? found.where : s.billingAddress;
  const taxedAt: Subscription = { ...s, billingAddress: where };
  const decision = taxedDecision(taxedAt, decided, at);
  const charge = decision.charge;
  if (!charge || charge.spec.amountMinor === 0 || !instrument) {
    const outcome: Outcome | undefined = !charge
      ? undefined
      : charge.spec.amountMinor === 0
        ? { paid: true, transactionId: null }
        : { paid: false, transactionId: null, reason: 'no_payment_instrument' };
    const effect = outcome && !outcome.paid ? charge!.declined : decision;
    const invoice = outcome ? await invoiceItems(organization, taxedAt, charge!.spec, outcome, at) : [];
    const next = await commitOrConflict(organization, s, changed(s, { ...effect.changes, billingAddress: where }, at), offsetMs, [...effect.extra, ...invoice]);
    return { subscription: next, ...(outcome ? { outcome } : {}) };
  }
  const { spec, declined } = charge;
  const pending: PendingStep = {
    key: spec.key,
    transactionId: spec.transactionId,
    at,
    offsetMs,
    spec,
    paid: { changes: decision.changes, extra: decision.extra },
    declined,
  };
  // The claim keeps where the charge is taxed, paid or declined: the place its settlement invoices, and a later charge falls back on.
  const claimed = changed(s, { pending, billingAddress: where }, at);
  const here: ClaimedHere = { claimed };
  claimedHere.set(spec.transactionId, here);
  const outcome = await charged(() =>
    chargeSubscription(organization, {
      kind: subscriptionChargesKind,
      key: spec.key,
      transactionId: spec.transactionId,
      subscriptionId: s.id,
      customer: { id: s.customerId, name: s.customerName, email: s.customerEmail },
      instrument,
      amountMinor: spec.amountMinor,
      taxMinor: spec.taxMinor ?? 0,
      currency: s.currency,
      description: spec.description,
      claimItems: [
        repo.saveSubscriptionItem(claimed, indexAtOf(claimed, offsetMs)),
        repo.putMoneyStep({
          subscriptionId: s.id,
          decidedOnVersion: s.version,
          kind: 'charge',
          id: spec.transactionId,
          key: spec.key,
          amountMinor: spec.amountMinor,
          at,
        }),
      ],
      refusal: (reasons) => (reasons.includes('ConditionalCheckFailed') ? subscriptionConflict() : null),
    }),
  ).finally(() => claimedHere.delete(spec.transactionId));
  // Settled by this request: the subscription is what its settlement wrote. Else (a repeat of another's step) read it.
  const after = here.settled ?? (await repo.getSubscription(s.organizationId, s.id));
  return { subscription: after ?? claimed, outcome };
}

/**
 * The steps this process claimed and is charging, by transaction: their settlement takes the subscription as
 * claimed instead of reading it again, and leaves what it wrote for the step's answer. A step settled elsewhere (the
 * reconciler, another worker taking a dead claim over) reads the subscription.
 */
interface ClaimedHere {
  claimed: Subscription;
  settled?: Subscription;
}
const claimedHere = new Map<string, ClaimedHere>();

/** The outcome of a subscription charge's answer (a recorded decline or processor error is an outcome, not an error). */
async function charged(send: () => Promise<{ body: unknown }>): Promise<Outcome> {
  try {
    const answer = await send();
    return { paid: true, transactionId: (answer.body as { data: { id: string } }).data.id };
  } catch (e) {
    if (!(e instanceof DomainError) || (e.code !== 'payment.declined' && e.code !== 'payment.processor_error')) throw e;
    const details = (e.details ?? {}) as { transactionId?: string; declineCode?: string; errorCode?: string };
    return { paid: false, transactionId: details.transactionId ?? null, reason: details.declineCode ?? details.errorCode ?? e.code };
  }
}

/**
 * Finishes the step pending on `s` (its request died, or is still charging): waits for its charge's answer, or takes
 * the claim over once its lock has passed and charges it (never twice: same key). Answers the subscription as the
 * settlement left it; as it is when the charge is still being made (the reconciler settles it in the end).
 */
export async function finishPending(organization: Merchant, s: Subscription): Promise<Subscription> {
  const p = s.pending;
  if (!p) return s;
  try {
    await charged(async () => {
      const answer = await resumeCharge(subscriptionChargesKind, organization, p.key, subscriptionChargeFingerprint(s.id, p.key));
      if (!answer) throw new Error(`No claim of the pending step ${p.key}`);
      return answer;
    });
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    logger.info('a pending subscription step is still being charged', { subscriptionId: s.id, code: e.code });
  }
  return (await repo.getSubscription(s.organizationId, s.id)) ?? s;
}

/**
 * What the settlement of a subscription's charge writes besides the engine's: the pending step's effect (paid or
 * declined), the subscription's next version without it, its events and the charge's invoice — read from the
 * subscription, whose pending step names the settled transaction. A charge of no pending step writes nothing more.
 */
async function settleStep(
  settled: {
    id: string;
    subscriptionId: string | null;
    status: string;
    declineReason: { code: string } | null;
    amountMinor: number;
    card: { brand: string; last4: string } | null;
  },
  organization: Merchant,
) {
  const here = claimedHere.get(settled.id);
  const s = here?.claimed ?? (settled.subscriptionId ? await repo.getSubscriptionById(settled.subscriptionId) : null);
  const p = s?.pending;
  if (!s || !p || p.transactionId !== settled.id) return [];
  const outcome: Outcome =
    settled.status === 'completed'
      ? { paid: true, transactionId: settled.id }
      : { paid: false, transactionId: settled.id, reason: settled.declineReason?.code ?? 'declined' };
  const effect = outcome.paid ? p.paid : p.declined;
  // Where the charge was taxed (the claim keeps it) stays, whatever state the step's effect brings back.
  const next = changed({ ...s, pending: null }, { ...effect.changes, billingAddress: s.billingAddress }, p.at);
  if (here) here.settled = next;
  // Invoiced to the buyer where the charge was taxed (the address the step keeps).
  const invoice = await invoiceItems(organization, next, p.spec, outcome, p.at);
  // Paid: the customer's receipt, mailed once the settlement is written.
  const receipt = outcome.paid && settled.card ? customerMail(s, receiptMail(organization, next, settled, p.spec, p.at), p.at) : [];
  return [
    repo.saveSubscriptionItem(next, indexAtOf(next, p.offsetMs), { settles: true }),
    ...transitionEvents(organization, s, next, p.at),
    ...effect.extra,
    ...invoice,
    ...receipt,
  ];
}

/**
 * The receipt mail of the payment `paid` (`taxMinor` of it tax) that `s` (as the charge leaves it: the period it
 * paid) paid `organization` at `at`.
 */
function receiptMail(
  organization: Merchant,
  s: Subscription,
  paid: { id: string; amountMinor: number; card: { brand: string; last4: string } | null },
  spec: ChargeSpec,
  at: string,
): SubscriptionMail {
  // What the charge paid, as its invoice says: the period, or its rest from an items change.
  const start = spec.paysFrom ?? s.periodStart;
  const period = start && s.periodEnd ? { start: start.slice(0, 10), end: s.periodEnd.slice(0, 10) } : null;
  // The rate the tax was charged at, as the charge's lines kept it when it was taxed (one for all its lines).
  const rates = [...new Set(spec.lines.map((l) => l.taxRate))];
  const data = {
    ...mailAbout(organization, s),
    paymentId: paid.id,
    amountMinor: paid.amountMinor,
    taxMinor: spec.taxMinor ?? 0,
    taxRate: rates.length === 1 ? (rates[0] ?? null) : null,
    card: { brand: paid.card!.brand, last4: paid.card!.last4 },
    chargedAt: at,
    period,
    sellerOfRecord: sellerOfRecordText(sellerOfRecord()),
  };
  return { template: 'subscription.receipt', data };
}

/** A subscription step's charges: the subscriptions' operation; the settlement finishes the step that claimed it. */
export const subscriptionChargesKind: ChargeKind = {
  operation: SUBSCRIPTION_CHARGES_OPERATION,
  settleItems: settleStep,
  success: subscriptionChargeAnswer,
};
