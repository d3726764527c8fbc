/**
 * The race model of the subscription engine (test/subscriptions/integration/subscription-races.test.ts, and `npm run soak:subscriptions`
 * for longer runs): random interleavings of everything that changes a subscription — renewals by the worker (its
 * message delivered twice), test clock advances, resumes (the pause deleted), pauses (open-ended, or ending some hours
 * on), changes of a pause's end (to now, which resumes at once, or later), items changes (`retain` or `reset`, with or
 * without `proRataCredit`), cancellations (at once, prorated or not, at the next renewal), revokes, reactivations, the
 * card starting or stopping to decline, the merchant refunding the period's payment (all of it, or 100 minor units of
 * it), a dispute of 100 minor units of that payment recorded, and the customer's new card (the portal's card change:
 * each subscription that still charges takes it, a past-due one retried with it at once) — fired at once on the same
 * subscriptions, against the real table, each started after a random few milliseconds.
 *
 * A run: an organization of its own (its own test clock, a customer in California with a card, three monthly plans in
 * each of USD, JPY and KWD: two, none and three decimals), two subscriptions on the plans of one of those currencies
 * brought to a random state (active, paused, canceled, or canceled at the next renewal), then two waves of two to six
 * operations at once. After it, from the table (not trusting any answer):
 * (a) every kept charge is explained by exactly one step of its subscription: the subscription's own history (its
 *     money steps, each recorded in the step's transaction under the version it was decided on) names it once; no
 *     two money steps were decided on one version; a renewal's period number is one the subscription reached; the
 *     charge's invoice exists, paid, and is taxed as the reference says: the buyer is in California, so each of its
 *     lines (a credit applied too) carries 7.25 % of its amount, rounded once half to even, and its total is the
 *     charge (`taxMismatches` otherwise); an invoice is left open only for the declined charge its subscription is
 *     past due on, which a retry may still pay (`strandedInvoices` otherwise), and what a past-due subscription
 *     owes (its next charge, as the dashboard and the portal show it) is that invoice's total and tax
 *     (`owedMismatches` otherwise);
 * (b) a refund exists if and only if a completed cancellation owes it or the merchant asked for it: every refund of a
 *     subscription's payment is a prorated cancellation's (its key, its record completed and naming it, its money
 *     step) or one the run's merchant refund was answered with, and every completed cancellation naming a refund has
 *     it; what a cancellation's credit lines say it gave back is what its refunds gave back; no payment is refunded
 *     (and disputed) for more than it captured;
 * (c) the processor's total equals the ledger's: what the sandbox processor charged on the run's cards less what it
 *     refunded is the ledger's cash (and it made exactly one charge per transaction);
 * (d) no 5xx (an answer that is not a 4xx domain refusal), no clock left advancing, no step left pending, nothing
 *     left unsettled;
 * (e) every answer one its operation may give (`ANSWERS`): a refusal names what the client did or must do (a lost
 *     race is 409 `subscription.conflict`), never a step's inner refusal, such as a cancellation answering the
 *     refund's 422 for an amount it never asked for.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { DomainError } from '../../shared/domain/errors.ts';
import { toMajorUnits } from '../../shared/domain/money.ts';
import { getCustomerInvoice } from '../../shared/invoicing/invoices.repository.ts';
import type { CustomerInvoice } from '../../shared/invoicing/invoices.rules.ts';
import { listJournals } from '../../shared/money/ledger.repository.ts';
import { attachPaymentInstrument, findPaymentInstrument } from '../../shared/customers/index.ts';
import { sandboxChargesOf } from '../../shared/processor/sandbox-processor.ts';
import { sandboxRefundedMinor } from '../../shared/processor/sandbox-refunds.ts';
import { listRefunds } from '../../shared/payments/refunds.repository.ts';
import { createDispute, disputeOfTransaction } from '../../shared/payments/disputes.service.ts';
import { createRefund } from '../../shared/payments/refunds.service.ts';
import { setSandboxInstrumentDecline } from '../../shared/payments/sandbox-cards.service.ts';
import { type Transaction, TransactionEntity } from '../../shared/payments/transaction.entity.ts';
import { listUnsettled } from '../../shared/payments/unsettled.repository.ts';
import { queryAll, tableName } from '../../shared/platform/db/client.ts';
import * as keys from '../../shared/platform/db/keys.ts';
import { createCancellation, updateCancellation } from '../../shared/subscriptions/cancellations.service.ts';
import { getChange } from '../../shared/subscriptions/changes.repository.ts';
import { createPause, deletePause, updatePause } from '../../shared/subscriptions/pauses.service.ts';
import { createReactivation } from '../../shared/subscriptions/reactivations.service.ts';
import { chargeInvoiceId } from '../../shared/invoicing/invoices.rules.ts';
import { createSubscription, updateSubscriptionItems } from '../../shared/subscriptions/subscriptions.service.ts';
import { getSubscriptionById, listMoneySteps } from '../../shared/subscriptions/subscriptions.repository.ts';
import { adoptInstrument } from '../../shared/subscriptions/instrument-retry.service.ts';
import { advanceTestClock } from '../../shared/subscriptions/test-clock.service.ts';
import { getTestClock } from '../../shared/subscriptions/test-clock.repository.ts';
import { renewQueued } from '../../shared/subscriptions/worker.service.ts';
import { sandboxCardToken } from '../support/cards.ts';
import { allOfCollection } from '../support/listing.ts';
import { MODEL_CURRENCIES, type ModelCurrency, type Organization, takeOrganization } from './subscription-model.ts';

const HOUR = 3_600_000;
/** What a partial refund gives back and a dispute claims (minor units: 1.00 USD, 100 JPY, 0.100 KWD). */
const SOME_MINOR = 100;
const PAID = new Set(['completed', 'partially-refunded', 'refunded']);

/** An operation of a wave, on subscription `on` (0 or 1) where it names one. */
export type Op =
  | { kind: 'advance'; hours: number }
  | { kind: 'worker'; on: number }
  | { kind: 'resume'; on: number }
  | { kind: 'pause'; on: number; endHours: number | null }
  | { kind: 'editPause'; on: number; endHours: number }
  | { kind: 'items'; on: number; plan: number; retain: 'retain' | 'reset'; proRataCredit: boolean }
  | { kind: 'cancel'; on: number; policy: 'now' | 'now-prorated' | 'at-next-renewal' }
  | { kind: 'revoke'; on: number }
  | { kind: 'reactivate'; on: number }
  | { kind: 'decline'; on: boolean }
  | { kind: 'refund'; on: number; part: 'all' | 'some' }
  | { kind: 'dispute'; on: number }
  | { kind: 'card' };

/**
 * The answers each operation may give (after `skipped` for a target that is missing): 200, a lost race, the clock
 * advancing, and the refusals its subscription's state explains. Any other is a violation, counted in
 * `unexpectedAnswers`.
 */
const ANSWERS: Record<Op['kind'], string[]> = {
  // An advance computes its target from the clock it read: one that another advance overtook asks for a time past.
  advance: ['200', '409 test_clock.advancing', '422 test_clock.not_forward'],
  worker: ['200'],
  resume: ['skipped', '200', '409 subscription.conflict', '409 test_clock.advancing', '422 subscription_pause.completed'],
  pause: ['200', '409 subscription.conflict', '409 test_clock.advancing', '409 subscription_pause.already_open', '422 subscription.not_pausable'],
  // A change of the open pause's end (now: it ends at once, resuming the subscription), read before the pause ended.
  editPause: ['skipped', '200', '409 subscription.conflict', '409 test_clock.advancing', '422 subscription_pause.completed'],
  items: ['200', '409 subscription.conflict', '409 test_clock.advancing', '422 subscription.ended', '402 payment.declined'],
  cancel: ['200', '409 subscription.conflict', '409 test_clock.advancing', '409 subscription_cancellation.already_open', '422 subscription.ended'],
  revoke: ['skipped', '200', '409 subscription.conflict', '409 test_clock.advancing', '422 subscription_cancellation.closed'],
  reactivate: ['200', '409 subscription.conflict', '409 test_clock.advancing', '422 subscription.not_reactivatable', '402 payment.declined'],
  decline: ['200'],
  // A merchant's refund of the period's payment: refunded already (all of it, or nothing left), disputed, or another
  // refund of it being claimed at the same instant.
  refund: [
    'skipped',
    '200',
    '422 refund.transaction_not_refundable',
    '422 refund.amount_exceeds_refundable',
    '422 refund.transaction_disputed',
    '409 refund.conflict',
  ],
  // A dispute of the period's payment: it has one already, or its refunds left less than the disputed amount.
  dispute: ['skipped', '200', '409 dispute.transaction_already_disputed', '422 dispute.transaction_not_disputable', '422 dispute.amount_exceeds_transaction'],
  card: ['200', '409 subscription.conflict', '409 customer.changed', '409 test_clock.advancing'],
};

/** The rate the race model's buyer (in California) is taxed at, in hundredths of a percent (docs/tax.md: 7.25 %). */
const CALIFORNIA_BASIS_POINTS = 725;

/** `amountMinor` × 7.25 %, rounded once to the minor unit, half to even (docs/tax.md), the same both sides of zero. */
export function californiaTaxMinor(amountMinor: number): number {
  const scaled = Math.abs(amountMinor) * CALIFORNIA_BASIS_POINTS;
  const whole = Math.floor(scaled / 10_000);
  const rest = scaled - whole * 10_000;
  const rounded = rest > 5_000 || (rest === 5_000 && whole % 2 === 1) ? whole + 1 : whole;
  return amountMinor < 0 ? -rounded : rounded;
}

/**
 * What is wrong with the invoice of a paid charge of `amountMinor` to the race model's buyer, or null: every line is
 * taxed at 7.25 % (its tax that rate of its amount, rounded once), the invoice's tax is the sum of its lines' and its
 * total what was charged.
 */
export function invoiceTaxProblem(
  invoice: Pick<CustomerInvoice, 'items' | 'shippingFeeMinor' | 'totalTaxMinor' | 'totalAmountMinor'>,
  amountMinor: number,
): string | null {
  for (const line of invoice.items) {
    if (line.taxRate !== CALIFORNIA_BASIS_POINTS / 100)
      return `the line "${line.description}" is taxed at ${line.taxRate} %, not ${CALIFORNIA_BASIS_POINTS / 100} %`;
    if (line.taxAmountMinor !== californiaTaxMinor(line.amountMinor))
      return `the line "${line.description}" of ${line.amountMinor} is taxed ${line.taxAmountMinor}, not ${californiaTaxMinor(line.amountMinor)}`;
  }
  const tax = invoice.items.reduce((n, line) => n + line.taxAmountMinor, 0);
  const total = invoice.items.reduce((n, line) => n + line.amountMinor, 0) + invoice.shippingFeeMinor + tax;
  if (invoice.totalTaxMinor !== tax) return `the invoice's tax ${invoice.totalTaxMinor} is not its lines' ${tax}`;
  if (invoice.totalAmountMinor !== total || total !== amountMinor)
    return `the invoice's total ${invoice.totalAmountMinor} (its lines: ${total}) is not the charge's ${amountMinor}`;
  return null;
}

/** Whether an operation of `kind` may answer `answer` (a 5xx never may). */
export const mayAnswer = (kind: Op['kind'], answer: string): boolean => ANSWERS[kind].includes(answer);

/** How a subscription starts a run, before the waves. */
export type Prelude = 'active' | 'paused' | 'canceled' | 'ending';

export interface RaceRun {
  /** The currency of the subscriptions' plans. */
  currency: ModelCurrency;
  preludes: [Prelude, Prelude];
  waves: Array<Array<{ op: Op; delayMs: number }>>;
}

const on = fc.integer({ min: 0, max: 1 });
const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 40 * 24 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('worker' as const), on }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('resume' as const), on }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('pause' as const), on, endHours: fc.option(fc.integer({ min: 1, max: 40 * 24 }), { nil: null }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('editPause' as const), on, endHours: fc.integer({ min: 0, max: 40 * 24 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('items' as const),
      on,
      plan: fc.integer({ min: 0, max: 2 }),
      retain: fc.constantFrom('retain' as const, 'reset' as const),
      proRataCredit: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      on,
      policy: fc.constantFrom('now' as const, 'now-prorated' as const, 'at-next-renewal' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), on }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('reactivate' as const), on }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('decline' as const), on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const), on, part: fc.constantFrom('all' as const, 'some' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dispute' as const), on }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('card' as const) }) },
);

export const raceRunArbitrary: fc.Arbitrary<RaceRun> = fc.record({
  currency: fc.constantFrom(...MODEL_CURRENCIES),
  preludes: fc.tuple(fc.constantFrom<Prelude>('active', 'paused', 'canceled', 'ending'), fc.constantFrom<Prelude>('active', 'paused', 'canceled', 'ending')),
  waves: fc.array(fc.array(fc.record({ op: opArbitrary, delayMs: fc.integer({ min: 0, max: 15 }) }), { minLength: 2, maxLength: 6 }), {
    minLength: 2,
    maxLength: 2,
  }),
});

/**
 * Runs of what the version condition exists for: two active subscriptions, and in each wave two to four changes that
 * move money (a prorated items change, a prorated cancellation) sent at the same instant, so that several of them
 * read a subscription's same version. The check that the property can fail draws from these: without the condition
 * two of them both write, and their money steps name one version.
 */
export const collidingRunArbitrary: fc.Arbitrary<RaceRun> = fc.record({
  currency: fc.constantFrom(...MODEL_CURRENCIES),
  preludes: fc.constant<[Prelude, Prelude]>(['active', 'active']),
  waves: fc.array(
    fc.array(
      fc.record({
        op: fc.oneof(
          fc.record({
            kind: fc.constant('items' as const),
            on,
            plan: fc.integer({ min: 0, max: 2 }),
            retain: fc.constant('retain' as const),
            proRataCredit: fc.boolean(),
          }),
          fc.record({ kind: fc.constant('cancel' as const), on, policy: fc.constant('now-prorated' as const) }),
        ),
        delayMs: fc.constant(0),
      }),
      { minLength: 2, maxLength: 4 },
    ),
    { minLength: 2, maxLength: 2 },
  ),
});

/** What the runs saw and found, summed (the soak prints it). */
export interface RaceFigures {
  interleavings: number;
  operations: number;
  answers: Record<string, number>;
  charges: number;
  refunds: number;
  /** Past-due subscriptions whose amount owed was checked against their open invoice. */
  owedChecked: number;
  unexplainedCharges: number;
  refundsWithoutCancellation: number;
  cancellationsWithoutRefund: number;
  processorLedgerMismatches: number;
  fiveHundreds: number;
  /** Answers (not 5xx) that their operation may not give (see `ANSWERS`). */
  unexpectedAnswers: number;
  /** Paid charges whose invoice is not taxed as the reference says (see `invoiceTaxProblem`). */
  taxMismatches: number;
  /** Open invoices no retry will pay: of a declined charge the subscription is not past due on. */
  strandedInvoices: number;
  /** Past-due subscriptions whose amount owed (their next charge as shown) is not their open invoice's. */
  owedMismatches: number;
  stuckClocks: number;
  pendingLeft: number;
  /** The first violations found, described. */
  violations: string[];
}

/** The violations counted in `f`, of every kind (0 when the engine holds). */
export const violationCount = (f: RaceFigures): number =>
  f.unexplainedCharges +
  f.refundsWithoutCancellation +
  f.cancellationsWithoutRefund +
  f.processorLedgerMismatches +
  f.fiveHundreds +
  f.unexpectedAnswers +
  f.taxMismatches +
  f.strandedInvoices +
  f.owedMismatches +
  f.stuckClocks +
  f.pendingLeft;

export const emptyFigures = (): RaceFigures => ({
  interleavings: 0,
  operations: 0,
  answers: {},
  charges: 0,
  owedChecked: 0,
  refunds: 0,
  unexplainedCharges: 0,
  refundsWithoutCancellation: 0,
  cancellationsWithoutRefund: 0,
  processorLedgerMismatches: 0,
  fiveHundreds: 0,
  unexpectedAnswers: 0,
  taxMismatches: 0,
  strandedInvoices: 0,
  owedMismatches: 0,
  stuckClocks: 0,
  pendingLeft: 0,
  violations: [],
});

interface World {
  org: Organization;
  currency: ModelCurrency;
  ids: [string, string];
  /** The refunds the merchant's refunds were answered with. */
  merchantRefunds: Set<string>;
  /** The customer's cards: the organization's, then each new one. */
  instruments: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An answer as a client sees it: `200`, or a refusal's status and code; a 5xx for anything that is no domain refusal. */
async function answerOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return '200';
  } catch (e) {
    if (e instanceof DomainError && e.status < 500) return `${e.status} ${e.code}`;
    return `5xx ${e instanceof DomainError ? e.code : (e as Error).name}: ${(e as Error).message}`;
  }
}

/** The organization's clock time `hours` from now (ISO). */
async function hoursOn(organizationId: string, hours: number): Promise<string> {
  return new Date(Date.now() + (await getTestClock(organizationId)).offsetMs + hours * HOUR).toISOString();
}

/** Runs `op` in world `w` (an operation whose target is missing — no pause to end — is a no-op). */
async function runOp(w: World, op: Op): Promise<string> {
  const organization = w.org.organization;
  const id = 'on' in op && typeof op.on === 'number' ? w.ids[op.on]! : '';
  switch (op.kind) {
    case 'advance':
      return answerOf(async () => advanceTestClock(organization, await hoursOn(organization.id, op.hours)));
    case 'worker':
      // A duplicate delivery of the renewal queue's message: two workers at once.
      return answerOf(async () => {
        const body = JSON.stringify({ subscriptionId: id, organizationId: organization.id });
        await Promise.all([renewQueued(body), renewQueued(body)]);
      });
    case 'resume': {
      const s = await getSubscriptionById(id);
      if (!s?.pause) return 'skipped';
      return answerOf(() => deletePause(organization, s.pause!.id));
    }
    case 'pause':
      return answerOf(async () =>
        createPause(organization, {
          subscriptionId: id,
          endAt: op.endHours === null ? null : await hoursOn(organization.id, op.endHours),
        }),
      );
    case 'editPause': {
      const s = await getSubscriptionById(id);
      if (!s?.pause) return 'skipped';
      return answerOf(async () => updatePause(organization, s.pause!.id, { endAt: await hoursOn(organization.id, op.endHours) }));
    }
    case 'items':
      return answerOf(() =>
        updateSubscriptionItems(organization, id, {
          items: [{ plan: w.org.planIds[w.currency][op.plan]!, quantity: 1 }],
          retainRenewalTime: op.retain,
          proRataCredit: op.proRataCredit,
        }),
      );
    case 'cancel':
      return answerOf(() =>
        createCancellation(organization, {
          subscriptionId: id,
          churnTimePolicy: op.policy === 'at-next-renewal' ? 'at-next-renewal' : 'now',
          prorated: op.policy === 'now-prorated',
        }),
      );
    case 'revoke': {
      const s = await getSubscriptionById(id);
      if (!s?.openCancellationId) return 'skipped';
      return answerOf(() => updateCancellation(organization, s.openCancellationId!, { status: 'revoked' }));
    }
    case 'reactivate':
      return answerOf(() => createReactivation(organization, { subscriptionId: id }));
    case 'decline':
      return answerOf(() => setSandboxInstrumentDecline(organization.id, w.org.taxed.instrumentId, op.on ? 'insufficient_funds' : null));
    case 'card':
      // The portal's card change (`replaceCard`'s two steps, so that the run knows the card): the customer's primary
      // in the attach's transaction, then each subscription.
      return answerOf(async () => {
        const token = await sandboxCardToken(organization.id);
        const { id: instrumentId } = await attachPaymentInstrument(organization.id, w.org.taxed.customerId, token.id, true);
        w.instruments.push(instrumentId);
        await adoptInstrument(organization, w.org.taxed.customerId, instrumentId);
      });
    case 'dispute': {
      const transactionId = (await getSubscriptionById(id))?.periodTransactionId;
      if (!transactionId) return 'skipped';
      return answerOf(() =>
        createDispute(organization, `dsp-${randomUUID()}`, {
          transactionId,
          amount: toMajorUnits(SOME_MINOR, w.currency),
          currency: w.currency,
          type: 'consumer-disputes',
          status: 'response-needed',
        }),
      );
    }
    case 'refund': {
      const transactionId = (await getSubscriptionById(id))?.periodTransactionId;
      if (!transactionId) return 'skipped';
      return answerOf(async () => {
        const { refund } = await createRefund(
          organization,
          transactionId,
          op.part === 'all' ? { reason: 'Goodwill' } : { amount: toMajorUnits(SOME_MINOR, w.currency), reason: 'Goodwill' },
          'api',
        );
        w.merchantRefunds.add(refund.id);
      });
    }
  }
}

/** Two subscriptions on a fresh organization, each brought to its prelude's state. */
async function setUp({ preludes, currency }: RaceRun): Promise<World> {
  const org = await takeOrganization('month');
  const organization = org.organization;
  const ids = (await Promise.all(
    preludes.map(async (prelude, n) => {
      const s = await createSubscription(organization, {
        customerId: org.taxed.customerId,
        paymentInstrumentId: org.taxed.instrumentId,
        items: [{ plan: org.planIds[currency][n]!, quantity: 1 }],
        isTrialOnly: false,
      });
      if (prelude === 'paused') await createPause(organization, { subscriptionId: s.id });
      if (prelude === 'canceled') await createCancellation(organization, { subscriptionId: s.id, churnTimePolicy: 'now', prorated: true });
      if (prelude === 'ending') await createCancellation(organization, { subscriptionId: s.id, churnTimePolicy: 'at-next-renewal' });
      return s.id;
    }),
  )) as [string, string];
  return { org, currency, ids, merchantRefunds: new Set(), instruments: [org.taxed.instrumentId] };
}

async function transactionsOf(organizationId: string): Promise<Transaction[]> {
  return (await allOfCollection('TRANSACTION', organizationId)).map(TransactionEntity.parse);
}

/** Checks (a)–(d) on world `w` after its waves (see the top); adds what it finds to `f`. */
async function check(w: World, answers: Array<{ op: Op; answer: string }>, f: RaceFigures): Promise<void> {
  const organizationId = w.org.organization.id;
  const found: string[] = [];
  const violation = (what: string, counter: keyof RaceFigures) => {
    (f[counter] as number)++;
    found.push(what);
  };
  // (d) no 5xx, no clock advancing, no step pending, nothing unsettled; (e) every answer one its operation may give.
  for (const { op, answer } of answers) {
    if (answer.startsWith('5xx')) violation(`${op.kind} answered ${answer}`, 'fiveHundreds');
    else if (!mayAnswer(op.kind, answer)) violation(`${op.kind} answered ${answer}`, 'unexpectedAnswers');
  }
  const clock = await getTestClock(organizationId);
  if (clock.advancingTo) violation(`the clock is left advancing to ${clock.advancingTo}`, 'stuckClocks');
  const unsettled = await listUnsettled(new Date(Date.now() + 86_400_000).toISOString(), organizationId);
  if (unsettled.length) violation(`${unsettled.length} operations left unsettled`, 'pendingLeft');

  const txs = await transactionsOf(organizationId);
  f.charges += txs.length;
  for (const id of w.ids) {
    const s = (await getSubscriptionById(id))!;
    if (s.pending) violation(`subscription ${id} left with its step pending (${s.pending.key})`, 'pendingLeft');
    const mine = txs.filter((t) => t.subscriptionId === id);
    const steps = await listMoneySteps(id);
    // (a) Each kept charge: one money step; no two steps moved money on one version (a cancellation's refunds, one
    // per payment, are one step's).
    const versions = steps.map((m) => m.decidedOnVersion);
    const moves = new Set(steps.map((m) => `${m.decidedOnVersion} ${m.kind === 'charge' ? m.id : m.key.split(':').slice(0, 2).join(':')}`));
    if (new Set(versions).size !== moves.size)
      violation(`subscription ${id}: two steps moved money on one version (${[...moves].join(', ')})`, 'unexplainedCharges');
    for (const t of mine) {
      if (!PAID.has(t.status)) continue;
      const step = steps.filter((m) => m.kind === 'charge' && m.id === t.id);
      if (step.length !== 1) violation(`charge ${t.idempotencyKey} has ${step.length} money steps`, 'unexplainedCharges');
      const invoice = await getCustomerInvoice(organizationId, chargeInvoiceId(t.idempotencyKey));
      if (invoice?.status !== 'paid') violation(`charge ${t.idempotencyKey} has no paid invoice (${invoice?.status ?? 'none'})`, 'unexplainedCharges');
      const taxProblem = invoice && invoiceTaxProblem(invoice, t.amountMinor);
      if (taxProblem) violation(`charge ${t.idempotencyKey}: ${taxProblem}`, 'taxMismatches');
      const [kind, , period] = t.idempotencyKey.split(':');
      if (kind === 'renewal' && Number(period) > s.periodNumber)
        violation(`charge ${t.idempotencyKey} is for a period beyond ${s.periodNumber}`, 'unexplainedCharges');
      if (kind === 'reactivation') {
        const r = await getChange('SUBREACT', organizationId, t.idempotencyKey.slice('reactivation:'.length));
        if (r?.transactionId !== t.id) violation(`charge ${t.idempotencyKey} is not its reactivation's`, 'unexplainedCharges');
      }
    }
    // An invoice stays open only while its declined charge is retried: the one the subscription is past due on.
    for (const key of new Set(mine.filter((t) => t.status === 'declined').map((t) => t.idempotencyKey.replace(/:retry-\d+$/, '')))) {
      const invoice = await getCustomerInvoice(organizationId, chargeInvoiceId(key));
      if (invoice?.status === 'open' && !(s.status === 'past-due' && s.pastDue?.key === key))
        violation(`the invoice of ${key} is open, though the subscription (${s.status}) is not past due on it`, 'strandedInvoices');
    }
    // What it owes past due (its next charge, as the dashboard and the portal show it) is its open invoice, as issued.
    if (s.status === 'past-due' && s.pastDue) {
      const invoice = await getCustomerInvoice(organizationId, chargeInvoiceId(s.pastDue.key));
      if (invoice?.status === 'open') f.owedChecked++;
      if (invoice?.status === 'open' && (invoice.totalAmountMinor !== s.pastDue.amountMinor || invoice.totalTaxMinor !== s.pastDue.taxMinor))
        violation(
          `subscription ${id} owes ${s.pastDue.amountMinor} (tax ${s.pastDue.taxMinor}), its open invoice says ${invoice.totalAmountMinor} (tax ${invoice.totalTaxMinor})`,
          'owedMismatches',
        );
    }
    const paidRenewals = mine.filter((t) => PAID.has(t.status) && t.idempotencyKey.startsWith('renewal:')).map((t) => t.idempotencyKey.split(':')[2]);
    if (new Set(paidRenewals).size !== paidRenewals.length)
      violation(`subscription ${id}: a period paid twice (${paidRenewals.join(', ')})`, 'unexplainedCharges');

    // (b) Refund ⇔ a completed cancellation that owes it.
    const refunds = (await Promise.all(mine.map((t) => listRefunds(t.id)))).flat();
    f.refunds += refunds.length;
    const cancellations = await cancellationsOf(w, id);
    for (const t of mine) {
      const given = refunds.filter((r) => r.transactionId === t.id && r.status !== 'failed').reduce((n, r) => n + r.amountMinor, 0);
      const disputed = (await disputeOfTransaction(organizationId, t.id))?.amountMinor ?? 0;
      if (given + disputed > t.amountMinor)
        violation(`charge ${t.idempotencyKey} refunded ${given} and disputed ${disputed} of ${t.amountMinor}`, 'refundsWithoutCancellation');
    }
    for (const r of refunds) {
      if (w.merchantRefunds.has(r.id)) continue;
      const c = cancellations.find((x) => r.idempotencyKey === `cancellation:${x.id}:${r.transactionId}`);
      const step = steps.filter((m) => m.kind === 'refund' && m.id === r.id);
      if (c?.status !== 'completed' || !c.refundIds.includes(r.id) || step.length !== 1) {
        violation(`refund ${r.id} (${r.idempotencyKey}) has no completed cancellation that owes it`, 'refundsWithoutCancellation');
      }
    }
    for (const c of cancellations) {
      for (const id of c.refundIds.filter((id) => !refunds.some((r) => r.id === id)))
        violation(`cancellation ${c.id} names refund ${id}, which does not exist`, 'cancellationsWithoutRefund');
      // What it says it gave back (its credit lines) is what its refunds gave back.
      const given = refunds.filter((r) => c.refundIds.includes(r.id) && r.status !== 'failed').reduce((n, r) => n + r.amountMinor, 0);
      if (given !== c.creditedMinor) violation(`cancellation ${c.id} credits ${c.creditedMinor}, its refunds gave back ${given}`, 'cancellationsWithoutRefund');
    }
  }
  // (c) The processor's total is the ledger's cash; one processor charge per transaction.
  const instruments = await Promise.all(w.instruments.map((id) => findPaymentInstrument(organizationId, id)));
  const processorCharges = (await Promise.all(instruments.map((i) => sandboxChargesOf(i!.processorReference)))).flat();
  const succeeded = processorCharges.filter((c) => c.result.outcome === 'succeeded');
  const refunded = await Promise.all(succeeded.map((c) => sandboxRefundedMinor(c.id)));
  const processorTotal = succeeded.reduce((n, c) => n + c.amountMinor, 0) - refunded.reduce((n, r) => n + r, 0);
  const cash = (await listJournals(organizationId)).flatMap((j) => j.entries).reduce((n, e) => n + (e.account === 'platform:cash' ? e.amount : 0), 0);
  if (processorTotal !== cash) violation(`the processor's total ${processorTotal} is not the ledger's cash ${cash}`, 'processorLedgerMismatches');
  if (processorCharges.length !== txs.length)
    violation(`the processor made ${processorCharges.length} charges for ${txs.length} transactions`, 'processorLedgerMismatches');
  if (found.length && f.violations.length < 20) f.violations.push(...found.map((v) => `[org ${organizationId}] ${v}`));
}

async function cancellationsOf(w: World, subscriptionId: string) {
  const items = await queryAll({
    TableName: tableName(),
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.catalogPartition('SUBCANCEL', w.org.organization.id) },
  });
  return items
    .filter((i) => i.subscriptionId === subscriptionId)
    .map((i) => ({
      id: i.id as string,
      status: i.status as string,
      refundIds: (i.refundIds as string[] | undefined) ?? [],
      creditedMinor: ((i.lineItems as Array<{ type: string; unitPriceMinor: number; quantity: number }> | undefined) ?? [])
        .filter((li) => li.type === 'credit')
        .reduce((n, li) => n + li.unitPriceMinor * li.quantity, 0),
    }));
}

/** One run (see the top): its waves at once, then its checks. Answers whether it found nothing wrong. */
export async function raceRun(run: RaceRun, f: RaceFigures): Promise<boolean> {
  const w = await setUp(run);
  const answers: Array<{ op: Op; answer: string }> = [];
  for (const wave of run.waves) {
    const got = await Promise.all(
      wave.map(async ({ op, delayMs }) => {
        await sleep(delayMs);
        return runOp(w, op);
      }),
    );
    f.interleavings++;
    f.operations += wave.length;
    for (const [n, a] of got.entries()) {
      const key = `${wave[n]!.op.kind} ${a.startsWith('5xx') ? '5xx' : a}`;
      f.answers[key] = (f.answers[key] ?? 0) + 1;
    }
    answers.push(...got.map((answer, n) => ({ op: wave[n]!.op, answer })));
  }
  const before = violationCount(f);
  await check(w, answers, f);
  return violationCount(f) === before;
}
