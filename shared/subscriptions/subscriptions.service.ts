/**
 * Subscriptions of the organization API: create (the first period charged at once through the charge engine, or a
 * trial, or a later start), read, list, and change the items. What happens as time passes is the renewal engine's
 * (./renewals.service.ts); the periods are counted by ./periods.rules.ts; what the dashboard and the portal read of
 * subscriptions is ./summaries.service.ts's.
 */
import { v7 as uuidv7 } from 'uuid';
import { type PeriodAnchorInstruction, findPlan, type Plan } from '../catalog/index.ts';
import { findCustomer, findPaymentInstrument } from '../customers/index.ts';
import { DomainError, UnprocessableError } from '../domain/errors.ts';
import { type Merchant, refuseUnlessLive } from '../domain/merchants.ts';
import { MAX_CHARGE_AMOUNT, toMajorUnits, withinChargeLimit } from '../domain/money.ts';
import { buyerTaxAddress, taxPort } from '../domain/tax.ts';
import { customerNotFound, paymentInstrumentNotFound, planNotFound, subscriptionNotFound } from '../domain/unknown-ids.ts';
import { chargeInvoiceId } from '../invoicing/index.ts';
import { anchorFor, boundary, prorationOf, shortFirstPeriodFits, trialEnd } from './periods.rules.ts';
import { applyStep, followScheduledEnd, periodAmount, periodSpec, periodValue, runDue } from './renewals.service.ts';
import { apply, type ChargeSpec, type Decision, decidableAt, engineState, subscriptionConflict } from './steps.service.ts';
import * as repo from './subscriptions.repository.ts';
import type { Subscription, SubscriptionItem } from './subscription.entity.ts';
import { cycleView, dueAction, newlyMade, nextRetryAt, priceOf, type SubscriptionSort, type SubscriptionStatus } from './subscriptions.rules.ts';
import { changeClockOf } from './test-clock.service.ts';

const major = (minor: number, currency: string) => toMajorUnits(minor, currency);

/** The subscription as the organization API shows it. */
export function subscriptionView(s: Subscription) {
  const renews = s.status === 'active' && s.periodEnd && (!s.endAt || s.endAt > s.periodEnd);
  const trialCharges = s.status === 'trial' && !s.isTrialOnly && (!s.endAt || s.endAt > s.trialEndAt!);
  return {
    id: s.id,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    deletedAt: null,
    organizationId: s.organizationId,
    price: major(s.priceMinor, s.currency),
    currency: s.currency,
    status: s.status,
    name: s.name,
    customer: { id: s.customerId, name: s.customerName, email: s.customerEmail },
    bilingCycle: cycleView(s.cycle),
    isAutoPay: s.isAutoPay,
    paymentInstrumentId: s.paymentInstrumentId,
    startTime: s.startAt,
    trialEndTime: s.trialEndAt,
    isTrialOnly: s.isTrialOnly,
    currentPeriodStart: s.periodStart,
    currentPeriodEnd: s.periodEnd,
    nextCharge:
      s.status === 'pending' ? s.startAt : s.status === 'past-due' ? nextRetryAt(engineState(s)) : renews ? s.periodEnd : trialCharges ? s.trialEndAt : null,
    endTime: s.endedAt ?? s.endAt,
    delinquencyPeriod: s.delinquencyDays,
    renewalRemindersSentAt: s.renewalRemindersSentAt,
    credit: major(s.creditMinor, s.currency),
    orderId: s.orderId,
    isTestData: s.isTestData,
    items: s.items.map((it) => ({
      price: major(it.unitPriceMinor * it.quantity, it.currency),
      quantity: it.quantity,
      formula: it.formula,
      currency: it.currency,
      planId: it.planId,
      planName: it.planName,
      bilingCycle: cycleView(it.cycle),
    })),
  };
}

const refusal = (code: string, message: string, details?: Record<string, unknown>) => new UnprocessableError(`subscription.${code}`, message, details);

/** The plans of `items`, checked: each the organization's, active and recurring; all of one currency and cycle. */
async function itemsOf(
  organizationId: string,
  input: ReadonlyArray<{ plan: string; quantity: number }>,
): Promise<{ items: SubscriptionItem[]; plans: Plan[] }> {
  const plans = await Promise.all(input.map((it) => findPlan(organizationId, it.plan)));
  const found: Plan[] = [];
  plans.forEach((p, n) => {
    if (!p) throw planNotFound();
    if (!p.isActive) throw refusal('plan_inactive', `items[${n}].plan: the plan is archived and cannot be subscribed to.`, { planId: p.id });
    if (!p.recurringInterval) throw refusal('plan_not_recurring', `items[${n}].plan: the plan is sold once, not by subscription.`, { planId: p.id });
    found.push(p);
  });
  const first = found[0]!;
  const i0 = first.recurringInterval!;
  for (const [n, p] of found.entries()) {
    if (p.currency !== first.currency)
      throw refusal('mixed_currencies', `items[${n}].plan: all plans of a subscription must have one currency (${first.currency}).`);
    const i = p.recurringInterval!;
    if (i.unit !== i0.unit || i.length !== i0.length || JSON.stringify(i.periodAnchorInstruction) !== JSON.stringify(i0.periodAnchorInstruction)) {
      throw refusal('mixed_cycles', `items[${n}].plan: all plans of a subscription must have one billing cycle (every ${i0.length} ${i0.unit}).`);
    }
  }
  const items: SubscriptionItem[] = found.map((p, n) => ({
    planId: p.id,
    planName: p.name,
    quantity: input[n]!.quantity,
    unitPriceMinor: p.price,
    formula: p.formula,
    currency: p.currency,
    cycle: { unit: p.recurringInterval!.unit, length: p.recurringInterval!.length },
  }));
  if (!withinChargeLimit(priceOf(items), first.currency)) {
    throw refusal(
      'amount_over_limit',
      `items: one period of these items costs more than ${MAX_CHARGE_AMOUNT} ${first.currency} before tax, the most one charge takes.`,
      { maxAmount: MAX_CHARGE_AMOUNT },
    );
  }
  return { plans: found, items };
}

const nameOf = (items: readonly SubscriptionItem[]) => (items.length === 1 ? items[0]!.planName : `${items[0]!.planName} and ${items.length - 1} more`);

export interface CreateSubscriptionInput {
  customerId: string;
  paymentInstrumentId?: string | null | undefined;
  items: Array<{ plan: string; quantity: number }>;
  startAt?: string | null | undefined;
  trial?: { enabled: boolean; endAt?: string | null | undefined } | null | undefined;
  isTrialOnly: boolean;
  renewalTime?: string | null | undefined;
  /** Checkout: the order that sold it. */
  orderId?: string | null;
}

const iso = (t: string) => new Date(t).toISOString();

/**
 * A new subscription. Starting now without a trial, its first period is charged at once: 402 `payment.declined`
 * (with the decline) leaves it `incomplete`, never active. 404 `customer.not_found`, `payment_instrument.not_found`,
 * `plan.not_found`; 422 `subscription.*` for plans that cannot be combined, a trial that ends before the start, a
 * trial-only subscription without a trial, or no instrument to charge. `id` is the id it is made under (an idempotency
 * key's claim names it: `create-once.service.ts`).
 */
export async function createSubscription(organization: Merchant, input: CreateSubscriptionInput, id: string = uuidv7()) {
  refuseUnlessLive(organization);
  const clock = await changeClockOf(organization.id);
  const now = clock.now();
  const [customer, instrument, { items, plans }] = await Promise.all([
    findCustomer(organization.id, input.customerId),
    input.paymentInstrumentId ? findPaymentInstrument(organization.id, input.paymentInstrumentId) : null,
    itemsOf(organization.id, input.items),
  ]);
  if (!customer) throw customerNotFound();
  if (input.paymentInstrumentId && (!instrument || instrument.deletedAt || instrument.customerId !== customer.id)) throw paymentInstrumentNotFound();
  // Without an instrument named, the customer's primary one pays: one that is gone (or never was one of the
  // customer's: a primary is stored as given) is none.
  const primary = !instrument && customer.primaryPaymentInstrument ? await findPaymentInstrument(organization.id, customer.primaryPaymentInstrument.id) : null;
  const hasPrimary = Boolean(primary && !primary.deletedAt && primary.customerId === customer.id);
  const startAt = input.startAt && iso(input.startAt) > now ? iso(input.startAt) : now;
  const planTrial = plans[0]!.trial;
  const trialEndAt =
    input.trial?.enabled === false
      ? null
      : input.trial?.endAt
        ? iso(input.trial.endAt)
        : input.trial?.enabled || planTrial
          ? planTrial
            ? trialEnd(startAt, planTrial)
            : null
          : null;
  if (input.trial?.enabled && !trialEndAt) throw refusal('trial_without_end', 'trial.endAt: the plan has no trial, so the trial needs an end.');
  if (trialEndAt && trialEndAt <= startAt) throw refusal('trial_ends_before_start', 'trial.endAt: the trial must end after the subscription starts.');
  const isTrialOnly = input.isTrialOnly || plans.some((p) => p.isTrialOnly);
  if (isTrialOnly && !trialEndAt) throw refusal('trial_only_without_trial', 'isTrialOnly: a trial-only subscription needs a trial.');
  if (!isTrialOnly && !instrument && !hasPrimary) {
    throw refusal('no_payment_instrument', 'paymentInstrumentId: the customer has no usable primary payment instrument, so name one to charge.');
  }
  // Taxed where the buyer is: the billing address of the card it charges, else the customer's address. Where neither
  // names a country, no subscription can be taxed, so none is made (as the checkout asks every buyer for one).
  const billingAddress = buyerTaxAddress(instrument?.billingAddress, customer.address);
  if (!billingAddress) {
    throw refusal(
      'billing_address_required',
      "The customer has no address with a country, nor has the payment instrument a billing country: tax is charged where the buyer is, so set the customer's address (country, and region where the country has state taxes) first.",
    );
  }
  const interval = plans[0]!.recurringInterval!;
  const anchorInstruction: PeriodAnchorInstruction | null = input.renewalTime ? null : interval.periodAnchorInstruction;
  const fixedAnchor = input.renewalTime
    ? anchorFor(iso(input.renewalTime), { unit: interval.unit, length: interval.length, periodAnchorInstruction: null })
    : null;
  if (fixedAnchor) {
    // The first renewal: after billing starts (the start, or the trial's end), and within one cycle of it (the short
    // first period is prorated against the full one after it).
    const billingFrom = trialEndAt ?? startAt;
    if (fixedAnchor.at <= billingFrom) {
      throw refusal(
        'renewal_before_start',
        `renewalTime: the first renewal must come after the subscription starts${trialEndAt ? ' and its trial ends' : ''} (${billingFrom}).`,
      );
    }
    if (!shortFirstPeriodFits(billingFrom, fixedAnchor)) {
      throw refusal(
        'renewal_too_far',
        `renewalTime: the first renewal must come at most one billing cycle (${interval.length} ${interval.unit}${interval.length === 1 ? '' : 's'}) after billing starts (${billingFrom}).`,
      );
    }
  }
  // A place the platform does not sell to (or cannot tax) is refused here, before anything is written: a trial or a
  // later start would otherwise make a subscription none of whose charges can ever be taxed.
  taxPort.quote({ lines: [], currency: items[0]!.currency, address: billingAddress, at: new Date(trialEndAt ?? startAt) });
  const priceMinor = priceOf(items);
  const s: Subscription = {
    id,
    organizationId: organization.id,
    customerId: customer.id,
    customerName: [customer.firstName, customer.lastName].filter(Boolean).join(' ') || null,
    customerEmail: customer.email,
    paymentInstrumentId: instrument?.id ?? null,
    isAutoPay: Boolean(instrument),
    name: nameOf(items),
    currency: items[0]!.currency,
    priceMinor,
    cycle: { unit: interval.unit, length: interval.length },
    anchorInstruction,
    items,
    ...newlyMade(),
    startAt,
    trialEndAt,
    isTrialOnly,
    anchor: fixedAnchor,
    billingAddress,
    orderId: input.orderId ?? null,
    isTestData: organization.mode === 'test',
    createdAt: now,
    updatedAt: now,
    version: 1,
    dueAt: startAt,
  };
  // Written first, on the due index a lease away: if this request dies after charging, the engine finishes it.
  const lease = new Date(Math.max(Date.parse(startAt), Date.now() + clock.offsetMs + 300_000) - clock.offsetMs).toISOString();
  await repo.saveNewSubscription(s, startAt > now ? new Date(Date.parse(startAt) - clock.offsetMs).toISOString() : lease);
  if (startAt > now) return subscriptionView(s);
  const applied = await applyStep(organization, s, 'start', now, clock.offsetMs);
  const after = applied?.subscription ?? s;
  const outcome = applied?.outcome;
  if (outcome && !outcome.paid) {
    throw new DomainError(402, 'payment.declined', `The first payment of the subscription was declined (${outcome.reason}); the subscription did not start.`, {
      subscriptionId: s.id,
      transactionId: outcome.transactionId,
      declineCode: outcome.reason,
    });
  }
  return subscriptionView(after);
}

/** The organization's subscription (404 `subscription.not_found`; test data too when `showTestData` is false). */
export async function ownSubscription(organizationId: string, id: string, showTestData = true): Promise<Subscription> {
  const s = await repo.getSubscription(organizationId, id);
  if (!s || (!showTestData && s.isTestData)) throw subscriptionNotFound();
  return s;
}

export async function getSubscription(organization: Merchant, id: string, showTestData = true) {
  return subscriptionView(await ownSubscription(organization.id, id, showTestData));
}

export interface SubscriptionListQuery {
  limit: number;
  offset: number;
  sortDirection: 'asc' | 'desc';
  sortBy: SubscriptionSort;
  statuses?: SubscriptionStatus[] | undefined;
  customerId?: string | undefined;
  planId?: string | undefined;
  search?: string | undefined;
  showTestData: boolean;
}

/** Most subscriptions sorted by `nextCharge` at once (it is not an index: they are read and sorted). */
export const NEXT_CHARGE_SORT_LIMIT = 10_000;

/** The DynamoDB filter of a list's status, plan, search and test data filters (none: undefined). */
export function listFilter(q: Omit<SubscriptionListQuery, 'limit' | 'offset' | 'sortDirection' | 'sortBy' | 'customerId'>) {
  const clauses: string[] = [];
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  if (q.statuses?.length) {
    names['#st'] = 'status';
    clauses.push(`#st IN (${q.statuses.map((_, i) => `:st${i}`).join(', ')})`);
    for (const [i, st] of q.statuses.entries()) values[`:st${i}`] = st;
  }
  if (q.planId) {
    clauses.push('contains(planIds, :plan)');
    values[':plan'] = q.planId;
  }
  if (q.search) {
    clauses.push('contains(searchText, :q)');
    values[':q'] = q.search.toLowerCase();
  }
  if (!q.showTestData) {
    clauses.push('isTestData = :f');
    values[':f'] = false;
  }
  return clauses.length ? { expression: clauses.join(' AND '), ...(Object.keys(names).length ? { names } : {}), values } : undefined;
}

/**
 * One page of the organization's subscriptions. Sorted by `createdAt` or `updatedAt` it is a page of an index with
 * the filters applied by DynamoDB. Those of one customer (`customerId`) are read from the customer's partition of
 * gsi4, then filtered and sorted; by `nextCharge`, every matching subscription is read (at most
 * NEXT_CHARGE_SORT_LIMIT, else 422 `subscription.sort_too_broad`) and sorted (no next charge: last).
 */
export async function listSubscriptions(organization: Merchant, q: SubscriptionListQuery) {
  if (q.sortBy !== 'nextCharge' && !q.customerId) {
    const filter = listFilter(q);
    const page = await repo.listSubscriptionPage(organization.id, {
      sortBy: q.sortBy,
      sortDirection: q.sortDirection,
      offset: q.offset,
      limit: q.limit,
      ...(filter ? { filter } : {}),
    });
    return { totalCount: page.totalCount, data: page.items.map(subscriptionView) };
  }
  // One customer's subscriptions are read from its own partition of gsi4, whatever the organization's size; sorted by
  // nextCharge, every subscription of the organization.
  const read = q.customerId ? await repo.listCustomerSubscriptions(organization.id, q.customerId) : await repo.listAllOfOrganization(organization.id);
  const all = read
    .map((s) => ({ s, view: subscriptionView(s) }))
    .filter(({ view: s }) => {
      if (q.statuses?.length && !q.statuses.includes(s.status)) return false;
      if (q.planId && !s.items.some((it) => it.planId === q.planId)) return false;
      if (q.search && ![s.id, s.name, s.customer.name, s.customer.email].some((t) => t?.toLowerCase().includes(q.search!.toLowerCase()))) return false;
      return q.showTestData || !s.isTestData;
    });
  if (q.sortBy === 'nextCharge' && all.length > NEXT_CHARGE_SORT_LIMIT) {
    throw refusal('sort_too_broad', `More than ${NEXT_CHARGE_SORT_LIMIT} subscriptions match, too many to sort by nextCharge: narrow the filters.`);
  }
  const dir = q.sortDirection === 'asc' ? 1 : -1;
  if (q.sortBy === 'nextCharge') {
    all.sort(({ view: a }, { view: b }) => {
      if (a.nextCharge === b.nextCharge) return a.id < b.id ? -dir : dir;
      if (!a.nextCharge) return 1;
      if (!b.nextCharge) return -1;
      return a.nextCharge < b.nextCharge ? -dir : dir;
    });
  } else {
    // The order of the listing indexes: their sort keys, `<time>#<id>`.
    const key = ({ s }: (typeof all)[number]) => `${q.sortBy === 'updatedAt' ? s.updatedAt : s.createdAt}#${s.id}`;
    all.sort((a, b) => (key(a) < key(b) ? -dir : dir));
  }
  return { totalCount: all.length, data: all.slice(q.offset, q.offset + q.limit).map(({ view }) => view) };
}

export interface UpdateItemsInput {
  items: Array<{ plan: string; quantity: number }>;
  retainRenewalTime: 'retain' | 'reset';
  proRataCredit: boolean;
}

/**
 * New items for a subscription that has not ended. `retain` keeps its periods; `reset` starts a new period now
 * (charged in full, less the credit for the unused part of the current one when `proRataCredit`). With
 * `proRataCredit` and `retain`, the unused part of the current period is credited at the old price and the rest of
 * it charged at the new one, to the second, as one charge (or a credit carried to the next renewals, never a
 * negative charge). 422 `subscription.ended`, and the items' refusals of create; the new items must keep the
 * currency and the cycle (`subscription.mixed_currencies`, `subscription.mixed_cycles`).
 */
export async function updateSubscriptionItems(organization: Merchant, id: string, input: UpdateItemsInput) {
  const clock = await changeClockOf(organization.id);
  const now = clock.now();
  let s = await ownSubscription(organization.id, id);
  if (s.status === 'canceled' || s.status === 'completed' || s.status === 'incomplete') {
    throw refusal('ended', `The subscription is ${s.status}; its items can no longer change.`, { status: s.status });
  }
  // Anything due before the change happens first (a renewal that fell due a moment ago).
  s = decidableAt(await runDue(organization, s, now, clock.offsetMs), now);
  // Still something due (another request is applying it) or a charge pending: decided now, it would be wrong.
  if (s.pending || dueAction(engineState(s), now)) throw subscriptionConflict();
  if (s.status === 'canceled' || s.status === 'completed' || s.status === 'incomplete') {
    throw refusal('ended', `The subscription is ${s.status}; its items can no longer change.`, { status: s.status });
  }
  const { items } = await itemsOf(organization.id, input.items);
  if (items[0]!.currency !== s.currency) throw refusal('mixed_currencies', `items: the subscription's currency is ${s.currency}.`);
  if (items[0]!.cycle.unit !== s.cycle.unit || items[0]!.cycle.length !== s.cycle.length) {
    throw refusal('mixed_cycles', `items: the subscription renews every ${s.cycle.length} ${s.cycle.unit}.`);
  }
  const applied = await apply(organization, s, await itemsDecision(s, items, input, now), now, clock.offsetMs);
  if (applied.outcome && !applied.outcome.paid) {
    throw new DomainError(402, 'payment.declined', `The items change's payment was declined (${applied.outcome.reason}); the items did not change.`, {
      declineCode: applied.outcome.reason,
    });
  }
  return subscriptionView(applied.subscription);
}

/**
 * What an items change of `s` at `now` does (one step; see `updateSubscriptionItems`): a charge, when it makes one,
 * keyed `items:<change>` (a new change id per request), and nothing changed when it is declined.
 */
async function itemsDecision(s: Subscription, items: SubscriptionItem[], input: UpdateItemsInput, now: string): Promise<Decision> {
  const newPrice = priceOf(items);
  const base: Partial<Subscription> = { items, priceMinor: newPrice, name: nameOf(items) };
  const billing = s.status === 'active' && s.periodStart && s.periodEnd && s.anchor && s.periodIndex !== null;
  if (!billing) return { changes: base, extra: [] };
  const key = `items:${uuidv7()}`;
  const unchanged = { changes: {}, extra: [] };
  // The unused time is credited at what the paid period is worth, the rest of it charged at the new items' price.
  const newValue = periodAmount(s, s.periodIndex!, newPrice);
  const p = prorationOf({ start: s.periodStart!, end: s.periodEnd!, at: now, oldPriceMinor: periodValue(s), newPriceMinor: newValue });
  const credit = input.proRataCredit ? p.creditMinor : 0;
  if (input.retainRenewalTime === 'reset') {
    // A new period from now: charged in full, less the credit.
    const anchor = anchorFor(now, { unit: s.cycle.unit, length: s.cycle.length, periodAnchorInstruction: null });
    const next = { ...s, ...base, anchor, creditMinor: s.creditMinor + credit };
    const spec: ChargeSpec = { ...periodSpec(next, 0, s.periodNumber + 1, key), invoiceIfDeclined: false };
    const periodEnd = boundary(anchor, 1);
    const scheduled = await followScheduledEnd(s, periodEnd, now);
    return {
      changes: {
        ...base,
        anchor,
        periodIndex: 0,
        periodNumber: s.periodNumber + 1,
        periodStart: now,
        periodEnd,
        creditMinor: Math.max(0, next.creditMinor - newPrice),
        remindedFor: [],
        periodTransactionId: spec.amountMinor > 0 ? spec.transactionId : null,
        periodChargeIds: [],
        periodInvoiceId: spec.invoiceId,
        periodValueMinor: newPrice,
        ...scheduled.changes,
      },
      extra: scheduled.extra,
      charge: { spec, declined: unchanged },
    };
  }
  // From the next renewal: the paid period keeps what it is worth.
  if (!input.proRataCredit) return { changes: { ...base, periodValueMinor: periodValue(s) }, extra: [] };
  // Retain with proration: one charge of the difference for the rest of the period, or a credit carried.
  const net = p.netMinor - Math.min(s.creditMinor, Math.max(0, p.netMinor));
  const creditMinor = p.netMinor < 0 ? s.creditMinor - p.netMinor : s.creditMinor - Math.min(s.creditMinor, Math.max(0, p.netMinor));
  const changes = { ...base, creditMinor, periodValueMinor: newValue };
  // A downgrade (or no difference): nothing to pay, the difference carried as credit.
  if (p.netMinor <= 0) return { changes, extra: [] };
  // An upgrade: charged, or paid all by the credit carried (a charge of 0, invoiced all the same, as a renewal's is).
  // Paid with money, it is one of the period's payments (what a prorated cancellation refunds from).
  const spec = prorationSpec(s, key, net, now, p, nameOf(items));
  const paidWith = net > 0 ? { periodChargeIds: [...s.periodChargeIds, spec.transactionId] } : {};
  return { changes: { ...changes, ...paidWith }, extra: [], charge: { spec, declined: unchanged } };
}

/**
 * The prorated charge of an items change: the new items for the rest of the period less the credit for the unused
 * part of the old ones (and of the credit carried), as one charge with one invoice.
 */
function prorationSpec(s: Subscription, key: string, amountMinor: number, at: string, p: ReturnType<typeof prorationOf>, newName: string): ChargeSpec {
  const span = `${at.slice(0, 10)} to ${s.periodEnd!.slice(0, 10)}`;
  return {
    key,
    transactionId: uuidv7(),
    invoiceId: chargeInvoiceId(key),
    invoiceIfDeclined: false,
    paysFrom: at,
    description: `${newName}: change of items, ${span}`,
    amountMinor,
    lines: [
      { description: `${newName} for the rest of the period (${span})`, quantity: 1, unitPriceMinor: p.chargeMinor },
      { description: `Unused time of ${s.name} (${span})`, quantity: 1, unitPriceMinor: -p.creditMinor },
      ...(p.netMinor - amountMinor > 0 ? [{ description: 'Credit applied', quantity: 1, unitPriceMinor: amountMinor - p.netMinor }] : []),
    ],
  };
}
