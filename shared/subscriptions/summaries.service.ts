/**
 * What the dashboard and the customer portal read of subscriptions, amounts in minor units: a subscription's summary
 * (with its next charge, taxed or before tax), the organization's and a customer's lists of them, a customer's
 * subscriptions with what each owes and may do, one subscription's standing and its charges. The organization API's
 * own reads are ./subscriptions.service.ts's.
 */
import { findCustomer, listCustomerInstruments } from '../customers/index.ts';
import type { Merchant } from '../domain/merchants.ts';
import { subscriptionNotFound } from '../domain/unknown-ids.ts';
import { invoicePaidBy, latestTransactions } from '../payments/index.ts';
import { getChange } from './changes.repository.ts';
import { paidUntil } from './changes.rules.ts';
import { dunningSchedule } from './periods.rules.ts';
import { owedCharge, periodSpec, startBilling } from './renewals.service.ts';
import { type ChargeSpec, chargedFrom, chargedWith, taxedSpec } from './steps.service.ts';
import type { Subscription } from './subscription.entity.ts';
import { listFilter, ownSubscription, subscriptionView } from './subscriptions.service.ts';
import * as repo from './subscriptions.repository.ts';
import type { SubscriptionStatus } from './subscriptions.rules.ts';
import { clockOf } from './test-clock.service.ts';

/**
 * The next charge of `s` at `at` (the credit carried taken off): its amount and tax, taxed where the customer is at
 * the rate in force on its date when `taxed`, else before tax; null when it has none. A past-due subscription's is
 * the declined charge its retries pay, as it was issued (whatever the items are now).
 */
function nextChargeOf(s: Subscription, at: string | null, taxed: boolean): { amountMinor: number; taxMinor: number } | null {
  if (!at) return null;
  if (s.status === 'past-due' && s.pastDue) {
    const owed = owedCharge(s, s.pastDue);
    return taxed ? owed : { amountMinor: owed.amountMinor - owed.taxMinor, taxMinor: 0 };
  }
  const spec = pricedNextCharge(s, at);
  const charged = taxed ? taxedSpec(s, spec, at) : spec;
  return { amountMinor: charged.amountMinor, taxMinor: charged.taxMinor ?? 0 };
}

/** The next charge of `s` at `at` before tax, as its items price it now (the credit carried taken off). */
function pricedNextCharge(s: Subscription, at: string): ChargeSpec {
  if (s.status === 'active' && s.periodIndex !== null) return periodSpec(s, s.periodIndex + 1, s.periodNumber + 1);
  const { s: billing, p } = startBilling(s, at);
  return periodSpec(billing, p, s.periodNumber + 1);
}

/** A subscription as the dashboard shows it: the organization API's view with its amounts in minor units and its open pause. */
export function subscriptionSummary(s: Subscription) {
  const view = subscriptionView(s);
  return {
    id: s.id,
    name: s.name,
    status: s.status,
    customer: view.customer,
    currency: s.currency,
    priceMinor: s.priceMinor,
    creditMinor: s.creditMinor,
    cycle: s.cycle,
    createdAt: s.createdAt,
    currentPeriodStart: s.periodStart,
    currentPeriodEnd: s.periodEnd,
    trialEndAt: s.trialEndAt,
    nextCharge: view.nextCharge,
    nextChargeMinor: nextChargeOf(s, view.nextCharge, false)?.amountMinor ?? null,
    /** When it ended, or when a scheduled cancellation ends it. */
    endAt: s.endedAt ?? s.endAt,
    /** Past due: when its payment was first declined, and when dunning cancels it unless a retry is paid. */
    dunning:
      s.status === 'past-due' && s.pastDue
        ? { declinedAt: s.pastDue.declinedAt, cancelAt: dunningSchedule(s.pastDue.declinedAt, s.delinquencyDays).cancelAt }
        : null,
    pause: s.pause,
  };
}

/** One page of the organization's subscriptions for the dashboard, newest first (a status filter). */
export async function subscriptionSummaries(organization: Merchant, q: { statuses?: SubscriptionStatus[] | undefined; offset: number; limit: number }) {
  const filter = listFilter({ ...q, showTestData: true });
  const page = await repo.listSubscriptionPage(organization.id, {
    sortBy: 'createdAt',
    sortDirection: 'desc',
    offset: q.offset,
    limit: q.limit,
    ...(filter ? { filter } : {}),
  });
  return { totalCount: page.totalCount, data: page.items.map(subscriptionSummary) };
}

/** The `limit` newest subscriptions of the organization's customer `customerId`, as the dashboard lists them. */
export async function customerSubscriptionSummaries(organization: Merchant, customerId: string, limit: number) {
  return (await repo.listCustomerSubscriptions(organization.id, customerId, limit)).map(subscriptionSummary);
}

/**
 * A subscription as its customer sees it in the portal: the dashboard's summary, with the next charge as it will be
 * charged — taxed where the customer is, at the rate in force on its date (`nextChargeMinor` includes
 * `nextChargeTaxMinor`) — and the open cancellation a customer may still undo.
 */
function customerSubscriptionView(s: Subscription) {
  const summary = subscriptionSummary(s);
  const taxed = nextChargeOf(s, summary.nextCharge, true);
  return {
    ...summary,
    nextChargeMinor: taxed?.amountMinor ?? null,
    nextChargeTaxMinor: taxed?.taxMinor ?? 0,
    openCancellationId: s.openCancellationId,
    /** The card its charges use (none: the customer's primary one). */
    paymentInstrumentId: s.paymentInstrumentId,
  };
}

/**
 * A subscription as the portal's page shows it (`customerSubscriptionView`), with what its cancel form says: when a
 * cancellation at the next renewal would end it, and whether the open cancellation is the customer's own (only such
 * a one may the customer undo, not the merchant's).
 */
export type CustomerSubscription = ReturnType<typeof customerSubscriptionView> & { paidUntil: string | null; cancellationIsOwn: boolean };

/** The subscriptions of the organization's customer `customerId`, newest first (at most `limit`), as the portal shows them. */
export async function customerSubscriptions(organization: Merchant, customerId: string, limit = 50): Promise<CustomerSubscription[]> {
  // The customer and its cards read beside its subscriptions (all are its own), not once for each subscription.
  const [subscriptions, clock, customer, cards] = await Promise.all([
    repo.listCustomerSubscriptions(organization.id, customerId, limit),
    clockOf(organization.id),
    findCustomer(organization.id, customerId),
    listCustomerInstruments(organization.id, customerId),
  ]);
  const now = clock.now();
  const card = (id: string | null | undefined) => cards.find((c) => c.id === id) ?? null;
  return Promise.all(
    subscriptions.map(async (s) => {
      // The next charge taxed where the buyer is now (a customer who moved, a replaced card), as the renewal will be
      // and its reminder says, not where the last charge was.
      const [open, charged, pause] = await Promise.all([
        s.openCancellationId ? getChange('SUBCANCEL', s.organizationId, s.openCancellationId) : null,
        chargedFrom(s, customer, card(s.paymentInstrumentId), () => card(customer?.primaryPaymentInstrument?.id)),
        // A pause stored before the subscription named who made it: its record does.
        s.pause && !s.pause.by ? getChange('SUBPAUSE', s.organizationId, s.pause.id) : null,
      ]);
      const view = customerSubscriptionView({
        ...s,
        billingAddress: charged.where,
        ...(s.pause && pause ? { pause: { ...s.pause, by: pause.pausedBy } } : {}),
      });
      return { ...view, paidUntil: paidUntil(s, now), cancellationIsOwn: open?.cancelledBy === 'customer' };
    }),
  );
}

/** The subscription `id` of the organization's customer `customerId`, for a portal form to act on; another customer's is 404 `subscription.not_found`. */
export async function customerSubscription(organization: Merchant, customerId: string, id: string): Promise<Subscription> {
  const s = await ownSubscription(organization.id, id);
  if (s.customerId !== customerId) throw subscriptionNotFound();
  return s;
}

/** Where the organization's subscription `id` stands: its status, its pause and when it ends (one read). */
export async function subscriptionStanding(organization: Merchant, id: string) {
  const s = await ownSubscription(organization.id, id);
  return { status: s.status, pause: s.pause, endAt: s.endAt };
}

/**
 * The organization's subscription for the dashboard (404 `subscription.not_found`), with its open cancellation: who
 * asked for it (the customer in the portal, the merchant, the platform) and why.
 */
export async function getSubscriptionSummary(organization: Merchant, id: string) {
  const s = await ownSubscription(organization.id, id);
  const [open, charged] = await Promise.all([s.openCancellationId ? getChange('SUBCANCEL', organization.id, s.openCancellationId) : null, chargedWith(s)]);
  // The next charge as it will be charged: taxed where the buyer is now, as the portal and the reminder say it.
  const summary = subscriptionSummary(s);
  const next = nextChargeOf({ ...s, billingAddress: charged.where }, summary.nextCharge, true);
  return {
    ...summary,
    nextChargeMinor: next?.amountMinor ?? null,
    nextChargeTaxMinor: next?.taxMinor ?? 0,
    openCancellation: open ? { cancelledBy: open.cancelledBy, reason: open.reason, description: open.description } : null,
  };
}

/**
 * The charges of the organization's subscription, newest first (at most `limit`): each period's payment (and its
 * retries, and the charges of items changes), in minor units, with when it was charged in the subscription's time
 * (`chargedAt`: the test clock's on the sandbox) and the id of the invoice it was billed on; and the
 * ids of its invoices (those of the charges, and the current period's, which a period paid by credit alone has
 * without a charge). 404 `subscription.not_found`.
 */
export async function subscriptionCharges(organization: Merchant, id: string, limit: number) {
  const s = await ownSubscription(organization.id, id);
  const [transactions, steps] = await Promise.all([
    latestTransactions(organization.id, limit, { customerId: s.customerId, subscriptionId: s.id }),
    repo.listMoneySteps(s.id),
  ]);
  // When each charge was decided in the subscription's time (its money step's), which under a moved test clock is
  // not the transaction's real time; the checkout's payment, which has no step, made the subscription.
  const stepAt = new Map(steps.filter((m) => m.kind === 'charge').map((m) => [m.id, m.at]));
  const charges = transactions.map((t) => ({
    transactionId: t.id,
    createdAt: t.createdAt,
    chargedAt: stepAt.get(t.id) ?? (t.checkout ? s.createdAt : t.createdAt),
    description: t.description,
    amountMinor: t.amountMinor,
    currency: t.currency,
    status: t.status,
    // The checkout's payment (the first period's) has the invoice the subscription was made with.
    invoiceId: invoicePaidBy(t),
  }));
  const invoiceIds = new Set(charges.flatMap((c) => (c.invoiceId ? [c.invoiceId] : [])));
  if (s.periodInvoiceId) invoiceIds.add(s.periodInvoiceId);
  return { charges, invoiceIds: [...invoiceIds] };
}
