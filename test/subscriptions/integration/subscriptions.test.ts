/**
 * Subscriptions through the local gateway, on each organization's own sandbox test clock: the first period charged
 * at creation, renewals on the anchor day (Jan 31 → Feb 28 → Mar 31 → Apr 30), a trial that ends into its first
 * charge, a declined renewal that goes past due, is retried and ends canceled by the system, items changes with and
 * without proration, and the engine's sweep and worker.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { setSandboxInstrumentDecline } from '../../../shared/payments/sandbox-cards.service.ts';
import { TransactionEntity } from '../../../shared/payments/transaction.entity.ts';
import { listTransactions } from '../../../shared/payments/transactions.service.ts';
import { getSubscriptionById } from '../../../shared/subscriptions/subscriptions.repository.ts';
import { listSubscriptions } from '../../../shared/subscriptions/subscriptions.service.ts';
import { subscriptionSummary } from '../../../shared/subscriptions/summaries.service.ts';
import { sweepDue } from '../../../shared/subscriptions/sweep.service.ts';
import { renewQueued } from '../../../shared/subscriptions/worker.service.ts';
import { advanceTestClock } from '../../../shared/subscriptions/test-clock.service.ts';
import { runDue } from '../../../shared/subscriptions/renewals.service.ts';
import { retryPastDue } from '../../../shared/subscriptions/instrument-retry.service.ts';
import { getMerchant } from '../../../shared/people/index.ts';
import { getBalance, getConditionBalance, listJournals } from '../../../shared/money/ledger.repository.ts';
import { balancesOf } from '../../../shared/money/ledger.rules.ts';
import { customerSubscriptions, subscriptionCharges } from '../../../shared/subscriptions/index.ts';
import { SubscriptionEntity } from '../../../shared/subscriptions/subscription.entity.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { testCards } from '../../support/cards.ts';
import { adminCli, call, cardToken, organizationAccount, orgCall, orgPath, orgPlan, payByCard, uniqueEmail } from '../../support/fixtures.ts';
import { eventItemsOf } from '../../support/events.ts';
import { mailsArrived } from '../../support/mails.ts';
import { countDynamoCalls } from '../../support/dynamo-counter.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const subscriptions = (org: Org) => `${orgPath(org.organizationId)}/subscriptions`;
const advance = (org: Org, to: string) => orgCall('POST', `${orgPath(org.organizationId)}/test-clock/advance`, { fullKey: org.fullKey, body: { to } });
const getSub = (org: Org, id: string) => orgCall('GET', `${subscriptions(org)}/${id}`, { fullKey: org.fullKey });
const chargesOf = async (org: Org, subscriptionId: string) => {
  const res = await orgCall('GET', `${orgPath(org.organizationId)}/transactions?subscriptionId=${subscriptionId}&limit=100&sortDirection=asc`, {
    fullKey: org.fullKey,
  });
  expect(res.status, res.text).toBe(200);
  return res.json.data as Array<{ status: string; amount: number; subscriptionId: string; createdAt: string }>;
};
const eventsOf = async (org: Org, type: string) =>
  (await eventItemsOf(org.organizationId)).filter((e) => e.type === type).map((e) => e.payload as Record<string, unknown>);

/** A new customer of `org` in Oregon (no sales tax), without a card: its id. */
async function newCustomer(org: Org, emailPrefix = 'subscriber'): Promise<string> {
  const customer = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, {
    fullKey: org.fullKey,
    body: { email: uniqueEmail(emailPrefix), primaryAddress: { customerAddress: { country: 'US', region: 'OR' } } },
  });
  expect(customer.status, customer.text).toBe(201);
  return customer.json.data.id as string;
}

/** A customer of `org` with a card on file (the card that succeeds unless said otherwise). */
async function customerWithCard(org: Org, number: string = testCards.succeeds) {
  const customerId = await newCustomer(org);
  const attached = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customerId}/payment-instruments`, {
    fullKey: org.fullKey,
    body: { token: await cardToken(org, number) },
  });
  expect(attached.status, attached.text).toBe(201);
  return { customerId, paymentInstrumentId: attached.json.data.id as string };
}

/** A new card of the customer, made its primary instrument (the table's stream brings the change to the retry consumer). */
async function newPrimaryCard(org: Org, customerId: string): Promise<string> {
  const fresh = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customerId}/payment-instruments`, {
    fullKey: org.fullKey,
    body: { token: await cardToken(org) },
  });
  expect(fresh.status, fresh.text).toBe(201);
  const set = await orgCall('PATCH', `${orgPath(org.organizationId)}/customers/${customerId}`, {
    fullKey: org.fullKey,
    body: { primaryPaymentInstrument: { method: 'payment-card', id: fresh.json.data.id } },
  });
  expect(set.status, set.text).toBe(200);
  return fresh.json.data.id as string;
}

/** A subscription of `card`'s customer to `plan` (and `body`'s fields), created through the API: its id. */
async function subscribe(org: Org, card: { customerId: string; paymentInstrumentId: string }, plan: string, body: Record<string, unknown> = {}) {
  const res = await orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { ...card, items: [{ plan }], ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json.data.id as string;
}

/** A monthly plan of 10 USD (and `plan`'s fields). */
const monthlyPlan = (org: Org, plan: Record<string, unknown> = {}) =>
  orgPlan(org, { pricing: { price: 10, formula: 'fixed-fee' }, ...plan }, { productType: 'recurring' });

/** The clock moved to the next Jan 31 at 10:00 UTC, so a subscription created now is anchored on the 31st. */
async function onJanuary31(org: Org) {
  const year = new Date().getUTCFullYear() + 1;
  const res = await advance(org, `${year}-01-31T10:00:00.000Z`);
  expect(res.status, res.text).toBe(200);
  return year;
}

describe('subscriptions', () => {
  it('charge the first period at once and renew on the anchor day, clamped to shorter months, never drifting', async () => {
    const org = await organizationAccount('Monthly shop');
    const plan = await monthlyPlan(org);
    const { customerId, paymentInstrumentId } = await customerWithCard(org);
    const year = await onJanuary31(org);
    const created = await orgCall('POST', subscriptions(org), {
      fullKey: org.fullKey,
      body: { customerId, paymentInstrumentId, items: [{ plan: plan.id, quantity: 2 }] },
    });
    expect(created.status, created.text).toBe(201);
    const sub = created.json.data;
    expect(sub).toMatchObject({ status: 'active', price: 20, currency: 'USD', bilingCycle: { unit: 'months', length: 1 }, isAutoPay: true });
    expect(sub.currentPeriodStart.slice(0, 10)).toBe(`${year}-01-31`);
    expect(sub.nextCharge.slice(0, 10)).toBe(`${year}-02-28`);
    expect((await chargesOf(org, sub.id)).map((t) => [t.status, t.amount])).toEqual([['completed', 20]]);

    expect((await advance(org, `${year}-05-01T00:00:00.000Z`)).status).toBe(200);
    const after = (await getSub(org, sub.id)).json.data;
    expect(after.status).toBe('active');
    expect(after.currentPeriodStart.slice(0, 10)).toBe(`${year}-04-30`);
    expect(after.nextCharge.slice(0, 10)).toBe(`${year}-05-31`);
    const charges = await chargesOf(org, sub.id);
    expect(charges.map((t) => t.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(charges.every((t) => t.amount === 20 && t.subscriptionId === sub.id)).toBe(true);
    // Reminders a week before each monthly renewal, once per period.
    expect(after.renewalRemindersSentAt.map((t: string) => t.slice(0, 10))).toEqual([`${year}-02-21`, `${year}-03-24`, `${year}-04-23`]);
    expect(await eventsOf(org, 'subscription.created')).toEqual([{ subscriptionId: sub.id, externalMembershipId: null, orderId: null, customerId }]);
    const completed = (await eventsOf(org, 'payment.completed')).filter((p) => p.subscriptionId === sub.id);
    expect(completed).toHaveLength(4);
  });

  it('anchor the periods on renewalTime, prorating the short first period; refuse one not after billing starts or more than a cycle away, writing nothing', async () => {
    const org = await organizationAccount('Anchored shop');
    const plan = await monthlyPlan(org);
    const card = await customerWithCard(org);
    const year = await onJanuary31(org);
    // 31 January 10:00 to 15 February 10:00 (15 days) of the 28-day period after it: 10 × 15/28 = 5.36.
    const anchored = await orgCall('POST', subscriptions(org), {
      fullKey: org.fullKey,
      body: { ...card, items: [{ plan: plan.id }], renewalTime: `${year}-02-15T10:00:00.000Z` },
    });
    expect(anchored.status, anchored.text).toBe(201);
    expect(anchored.json.data.nextCharge).toBe(`${year}-02-15T10:00:00.000Z`);
    expect((await chargesOf(org, anchored.json.data.id)).map((t) => t.amount)).toEqual([5.36]);
    for (const [renewalTime, code] of [
      [`${year}-01-30T10:00:00.000Z`, 'subscription.renewal_before_start'],
      [`${year}-01-31T10:00:00.000Z`, 'subscription.renewal_before_start'],
      // 45 days on: more than the month after it.
      [`${year}-03-17T10:00:00.000Z`, 'subscription.renewal_too_far'],
    ] as const) {
      const res = await orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { ...card, items: [{ plan: plan.id }], renewalTime } });
      expect(res.status, res.text).toBe(422);
      expect(res.json.errorCode, renewalTime).toBe(code);
    }
    const listed = await orgCall('GET', `${subscriptions(org)}?customerId=${card.customerId}`, { fullKey: org.fullKey });
    expect(listed.json.data.map((x: { id: string }) => x.id)).toEqual([anchored.json.data.id]);

    // A reactivation's renewalAt alike.
    const cancel = await orgCall('POST', `${orgPath(org.organizationId)}/subscription-cancellations`, {
      fullKey: org.fullKey,
      body: { subscriptionId: anchored.json.data.id, reason: 'other', churnTimePolicy: 'now' },
    });
    expect(cancel.status, cancel.text).toBe(201);
    const reactivate = await orgCall('POST', `${orgPath(org.organizationId)}/subscription-reactivations`, {
      fullKey: org.fullKey,
      body: { subscriptionId: anchored.json.data.id, renewalAt: `${year}-03-17T10:00:00.000Z` },
    });
    expect(reactivate.status, reactivate.text).toBe(422);
    expect(reactivate.json.errorCode).toBe('subscription_reactivation.renewal_too_far');
    expect((await getSub(org, anchored.json.data.id)).json.data.status).toBe('canceled');
  });

  it('refuse a declined first charge with 402 and leave no active subscription', async () => {
    const org = await organizationAccount('Declined shop');
    const plan = await monthlyPlan(org);
    const { customerId, paymentInstrumentId } = await customerWithCard(org, testCards.declinesAfterAttaching);
    const res = await orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { customerId, paymentInstrumentId, items: [{ plan: plan.id }] } });
    expect(res.status, res.text).toBe(402);
    expect(res.json.errorCode).toBe('payment.declined');
    const list = await orgCall('GET', `${subscriptions(org)}?statuses=active,trial,past-due`, { fullKey: org.fullKey });
    expect(list.json.totalCount).toBe(0);
    expect(await eventsOf(org, 'subscription.created')).toEqual([]);
  });

  it('refuse items whose one period costs more than one charge takes (10,000,000 before tax), on create and on an items change, writing nothing', async () => {
    const org = await organizationAccount('Enterprise shop');
    // The largest price a plan takes, times the largest quantity: far past what any sum of charges holds exactly.
    const dear = await monthlyPlan(org, { pricing: { price: 10_000_000_000, formula: 'fixed-fee' } });
    const atLimit = await monthlyPlan(org, { pricing: { price: 1_000, formula: 'fixed-fee' } });
    const card = await customerWithCard(org);
    for (const items of [
      [{ plan: dear.id, quantity: 10_000 }],
      [{ plan: dear.id }],
      [
        { plan: atLimit.id, quantity: 10_000 },
        { plan: atLimit.id, quantity: 1 },
      ],
    ]) {
      const res = await orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { ...card, items } });
      expect(res.status, res.text).toBe(422);
      expect(res.json.errorCode).toBe('subscription.amount_over_limit');
    }
    expect((await orgCall('GET', subscriptions(org), { fullKey: org.fullKey })).json.totalCount).toBe(0);
    expect(await chargesOf(org, 'none')).toEqual([]);
    // At the limit it is made (1,000 × 10,000), and an items change past it is refused, the items kept.
    const id = await subscribe(org, card, atLimit.id, { items: [{ plan: atLimit.id, quantity: 10_000 }] });
    const change = await orgCall('PUT', `${subscriptions(org)}/${id}/items`, { fullKey: org.fullKey, body: { items: [{ plan: dear.id, quantity: 10_000 }] } });
    expect(change.status, change.text).toBe(422);
    expect(change.json.errorCode).toBe('subscription.amount_over_limit');
    expect((await getSub(org, id)).json.data.items).toMatchObject([{ price: 10_000_000, quantity: 10_000 }]);
  });

  it('refuse 422 subscription.no_payment_instrument without an instrument named and no usable primary one (none, or one that is not there), writing nothing', async () => {
    const org = await organizationAccount('No instrument shop');
    const plan = await monthlyPlan(org);
    const customerId = await newCustomer(org, 'cardless');
    const create = () => orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { customerId, items: [{ plan: plan.id }] } });
    // A customer without a card has no primary instrument.
    const none = await create();
    expect(none.status, none.text).toBe(422);
    expect(none.json.errorCode).toBe('subscription.no_payment_instrument');
    // A primary instrument is stored as given: one this organization does not have is none.
    const set = await orgCall('PATCH', `${orgPath(org.organizationId)}/customers/${customerId}`, {
      fullKey: org.fullKey,
      body: { primaryPaymentInstrument: { method: 'payment-card', id: 'inst_0000000000000000000000000000' } },
    });
    expect(set.status, set.text).toBe(200);
    const stale = await create();
    expect(stale.status, stale.text).toBe(422);
    expect(stale.json.errorCode).toBe('subscription.no_payment_instrument');
    expect((await orgCall('GET', subscriptions(org), { fullKey: org.fullKey })).json.totalCount).toBe(0);
    expect(await chargesOf(org, 'none')).toEqual([]);
    // Its real card made primary, the same request subscribes.
    await newPrimaryCard(org, customerId);
    expect((await create()).status).toBe(201);
  });

  it('end a trial into its first charge', async () => {
    const org = await organizationAccount('Trial shop');
    const plan = await monthlyPlan(org, { trial: { unit: 'day', length: 14 } });
    const { customerId, paymentInstrumentId } = await customerWithCard(org);
    const created = await orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { customerId, paymentInstrumentId, items: [{ plan: plan.id }] } });
    expect(created.status, created.text).toBe(201);
    const sub = created.json.data;
    expect(sub.status).toBe('trial');
    expect(sub.nextCharge).toBe(sub.trialEndTime);
    expect(await chargesOf(org, sub.id)).toEqual([]);
    expect(await eventsOf(org, 'subscription.created')).toHaveLength(1);

    const clock = (await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey })).json.data;
    expect((await advance(org, new Date(Date.parse(clock.now) + 15 * 86_400_000).toISOString())).status).toBe(200);
    const after = (await getSub(org, sub.id)).json.data;
    expect(after.status).toBe('active');
    expect(after.currentPeriodStart).toBe(sub.trialEndTime);
    expect((await chargesOf(org, sub.id)).map((t) => [t.status, t.amount])).toEqual([['completed', 10]]);
    expect(await eventsOf(org, 'subscription.created')).toHaveLength(1);
  });

  it('a trial whose first charge is declined is past due with its first retry as its next charge, the declined charge', async () => {
    const org = await organizationAccount('Declined trial shop');
    const plan = await monthlyPlan(org, { trial: { unit: 'day', length: 14 } });
    const { customerId, paymentInstrumentId } = await customerWithCard(org, testCards.declinesAfterAttaching);
    const sub = (await orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { customerId, paymentInstrumentId, items: [{ plan: plan.id }] } }))
      .json.data;
    const trialEnd = Date.parse(sub.trialEndTime);
    expect((await advance(org, new Date(trialEnd + 3_600_000).toISOString())).status).toBe(200);
    const pastDue = (await getSub(org, sub.id)).json.data;
    expect(pastDue).toMatchObject({ status: 'past-due', currentPeriodEnd: null });
    // Retried 1, 3, 5 and 7 days after the decline: the first retry is the next charge, of what was declined.
    expect(pastDue.nextCharge).toBe(new Date(trialEnd + 86_400_000).toISOString());
    // The dashboard's: the declined 10 USD (Oregon: no sales tax).
    expect(subscriptionSummary((await getSubscriptionById(sub.id))!)).toMatchObject({ nextCharge: pastDue.nextCharge, nextChargeMinor: 1_000 });
  });

  it("book the renewals after an organization's first payment, all in one advance, into its balance's shards", async () => {
    // A new organization's first payments are its trials' first charges, made by the advance: each registers USD as
    // sharded once, and the renewals after it in the same advance book into the shards, not the balance's one item.
    const org = await organizationAccount('First payments in an advance');
    const plan = await monthlyPlan(org, { trial: { unit: 'day', length: 14 } });
    const subs = await Promise.all([0, 1].map(async () => subscribe(org, await customerWithCard(org), plan.id)));
    const clock = (await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey })).json.data;
    expect((await advance(org, new Date(Date.parse(clock.now) + 110 * 86_400_000).toISOString())).status).toBe(200);
    for (const id of subs) expect((await chargesOf(org, id)).map((t) => t.status)).toEqual(Array(4).fill('completed'));
    // Each subscription's first payment may register it (two at once may both): it is listed once.
    expect((await getMerchant(org.organizationId))!.shardedBalanceCurrencies).toEqual(['USD']);
    const journals = await listJournals(org.organizationId);
    const balance = await getBalance(org.organizationId, 'USD');
    expect(balance).toEqual(balancesOf(org.organizationId, journals));
    const netOfOne = balance.pending / 8;
    expect((await getConditionBalance(org.organizationId, 'USD')).pending).toBeLessThanOrEqual(2 * netOfOne);
  });

  it('move a declined renewal to past due, retry it on the dunning schedule, and cancel it by the system when that runs out', async () => {
    const org = await organizationAccount('Dunning shop');
    const plan = await monthlyPlan(org);
    const { customerId, paymentInstrumentId } = await customerWithCard(org);
    const year = await onJanuary31(org);
    const sub = (await orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { customerId, paymentInstrumentId, items: [{ plan: plan.id }] } }))
      .json.data;
    await setSandboxInstrumentDecline(org.organizationId, paymentInstrumentId, 'insufficient_funds');

    expect((await advance(org, `${year}-03-02T00:00:00.000Z`)).status).toBe(200);
    const pastDue = (await getSub(org, sub.id)).json.data;
    expect(pastDue.status).toBe('past-due');
    expect(pastDue.nextCharge.slice(0, 10)).toBe(`${year}-03-03`); // retried on days 1, 3, 5 and 7 after the decline

    expect((await advance(org, `${year}-03-20T00:00:00.000Z`)).status).toBe(200);
    const ended = (await getSub(org, sub.id)).json.data;
    expect(ended.status).toBe('canceled');
    expect(ended.endTime.slice(0, 10)).toBe(`${year}-03-08`);
    const charges = await chargesOf(org, sub.id);
    expect(charges.map((t) => t.status)).toEqual(['completed', 'declined', 'declined', 'declined', 'declined', 'declined']);
    expect(await eventsOf(org, 'subscription.cancelled')).toEqual([
      { subscriptionId: sub.id, externalMembershipId: null, cancelAtPeriodEnd: false, orderId: null, customerId },
    ]);
    expect((await eventsOf(org, 'payment.failed')).filter((p) => p.subscriptionId === sub.id)).toHaveLength(5);
  });

  it('retry a past-due subscription at once, with the new card, when its customer sets a new primary instrument', async () => {
    const org = await organizationAccount('Recovered shop');
    const plan = await monthlyPlan(org);
    const { customerId, paymentInstrumentId } = await customerWithCard(org);
    const year = await onJanuary31(org);
    const sub = (await orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { customerId, paymentInstrumentId, items: [{ plan: plan.id }] } }))
      .json.data;
    await setSandboxInstrumentDecline(org.organizationId, paymentInstrumentId, 'generic_decline');
    expect((await advance(org, `${year}-03-01T00:00:00.000Z`)).status).toBe(200);
    expect((await getSub(org, sub.id)).json.data.status).toBe('past-due');

    const freshId = await newPrimaryCard(org, customerId);
    // The table's stream brings the change to the retry consumer.
    await expect.poll(async () => (await getSub(org, sub.id)).json.data.status, { timeout: 15_000, interval: 200 }).toBe('active');
    const after = (await getSub(org, sub.id)).json.data;
    expect(after.paymentInstrumentId).toBe(freshId);
    const charges = await chargesOf(org, sub.id);
    expect(
      charges.map((t) => t.status),
      JSON.stringify(charges.map((t) => [t.status, (t as any).idempotencyKey, (t as any).paymentInstrumentId])),
    ).toEqual(['completed', 'declined', 'completed']);

    // The same change again finds nothing past due: the customer's subscriptions are one Query of its own partition
    // of the customers' index, however many the organization has.
    const again = await countDynamoCalls(() => retryPastDue({ organizationId: org.organizationId, customerId, instrumentId: freshId }));
    expect(again.result).toBe(0);
    expect(again.calls.filter((c) => c === 'Query' || c === 'Scan')).toEqual(['Query']);
  });

  it("register the organization's currency once when a new card's retries make its first payments", async () => {
    // Two trials whose first charges declined: the retries on the customer's new card are the organization's first
    // payments, made one after the other on the organization record the retry read at its start.
    const org = await organizationAccount('First payments on a new card');
    const plan = await monthlyPlan(org, { trial: { unit: 'day', length: 14 } });
    const card = await customerWithCard(org);
    const { customerId, paymentInstrumentId } = card;
    const subs = [await subscribe(org, card, plan.id), await subscribe(org, card, plan.id)];
    await setSandboxInstrumentDecline(org.organizationId, paymentInstrumentId, 'generic_decline');
    const clock = (await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey })).json.data;
    expect((await advance(org, new Date(Date.parse(clock.now) + 15 * 86_400_000).toISOString())).status).toBe(200);
    for (const id of subs) expect((await getSub(org, id)).json.data.status).toBe('past-due');
    expect((await getMerchant(org.organizationId))!.shardedBalanceCurrencies).toBeUndefined();

    await newPrimaryCard(org, customerId);
    for (const id of subs) {
      await expect.poll(async () => (await getSub(org, id)).json.data.status, { timeout: 15_000, interval: 200 }).toBe('active');
    }
    expect((await getMerchant(org.organizationId))!.shardedBalanceCurrencies).toEqual(['USD']);
    const journals = await listJournals(org.organizationId);
    expect(await getBalance(org.organizationId, 'USD')).toEqual(balancesOf(org.organizationId, journals));
  });

  it("read a customer's subscriptions from its own partition of the customers' index, newest first, and index those written before it", async () => {
    const org = await organizationAccount('Listed shop');
    const plan = await monthlyPlan(org);
    const [a, b] = await Promise.all([customerWithCard(org), customerWithCard(org)]);
    const older = await subscribe(org, a, plan.id);
    await subscribe(org, b, plan.id);
    const newer = await subscribe(org, a, plan.id);
    const merchant = (await getMerchant(org.organizationId))!;
    const listed = await countDynamoCalls(() => customerSubscriptions(merchant, a.customerId));
    expect(listed.result.map((s) => s.id)).toEqual([newer, older]);
    // Its subscriptions, and beside them its cards (where each next charge is taxed): two Queries of its own partitions.
    expect(listed.calls.filter((c) => c === 'Query' || c === 'Scan')).toEqual(['Query', 'Query']);
    expect((await customerSubscriptions(merchant, a.customerId, 1)).map((s) => s.id)).toEqual([newer]);
    // A subscription's charges are its customer's payments that name it: one Query of the customer's partition (and
    // one of the subscription's money steps).
    const charges = await countDynamoCalls(() => subscriptionCharges(merchant, older, 10));
    expect(charges.result.charges.map((c) => [c.status, c.amountMinor])).toEqual([['completed', 1000]]);
    expect(charges.calls.filter((c) => c === 'Query' || c === 'Scan')).toEqual(['Query', 'Query']);

    // As a subscription last written before the index: not on it until the operator's command.
    await db.send(new UpdateCommand({ TableName: tableName(), Key: SubscriptionEntity.key({ id: older }), UpdateExpression: 'REMOVE gsi4pk' }));
    expect((await customerSubscriptions(merchant, a.customerId)).map((s) => s.id)).toEqual([newer]);
    const { stdout } = await adminCli({}, 'index-records', '--json');
    expect(JSON.parse(stdout).indexed).toBeGreaterThanOrEqual(1);
    // Indexed, it is not read again.
    expect(JSON.parse((await adminCli({}, 'index-records', '--json')).stdout)).toEqual({ indexed: 0 });
    expect((await customerSubscriptions(merchant, a.customerId)).map((s) => s.id)).toEqual([newer, older]);
    expect((await customerSubscriptions(merchant, b.customerId)).map((s) => s.customer.id)).toEqual([b.customerId]);
  });

  it("list one customer's subscriptions from its own partition, as the organization's list filtered to it, in every sort", async () => {
    const org = await organizationAccount('Filtered list shop');
    const [cheap, dear] = [await monthlyPlan(org), await monthlyPlan(org, { pricing: { price: 25, formula: 'fixed-fee' } })];
    const [a, b] = await Promise.all([customerWithCard(org), customerWithCard(org)]);
    const mine = [
      await subscribe(org, a, cheap.id),
      await subscribe(org, b, cheap.id),
      await subscribe(org, a, dear.id, { startAt: new Date(Date.now() + 86_400_000 * 3).toISOString() }),
    ];
    await subscribe(org, a, dear.id);
    // One of a's changes after it was made: its place by updatedAt differs from its place by createdAt.
    expect(
      (await orgCall('POST', `${orgPath(org.organizationId)}/subscription-pauses`, { fullKey: org.fullKey, body: { subscriptionId: mine[0] } })).status,
    ).toBe(201);
    const list = (query: string) => orgCall('GET', `${subscriptions(org)}?${query}`, { fullKey: org.fullKey });
    for (const sortBy of ['createdAt', 'updatedAt', 'nextCharge']) {
      for (const sortDirection of ['asc', 'desc']) {
        const everyone = (await list(`sortBy=${sortBy}&sortDirection=${sortDirection}&limit=100`)).json.data as Array<{
          id: string;
          customer: { id: string };
          status: string;
          items: Array<{ planId: string }>;
        }>;
        const ofA = everyone.filter((s) => s.customer.id === a.customerId);
        expect(ofA).toHaveLength(3);
        const page = await list(`customerId=${a.customerId}&sortBy=${sortBy}&sortDirection=${sortDirection}&limit=2&offset=1`);
        expect(page.status, page.text).toBe(200);
        expect(page.json.totalCount).toBe(3);
        expect(page.json.data, `${sortBy} ${sortDirection}`).toEqual(ofA.slice(1, 3));
        const dearOfA = await list(`customerId=${a.customerId}&planId=${dear.id}&sortBy=${sortBy}&sortDirection=${sortDirection}`);
        expect(dearOfA.json.data.map((s: { id: string }) => s.id)).toEqual(ofA.filter((s) => s.items.some((it) => it.planId === dear.id)).map((s) => s.id));
      }
    }
    const paused = await list(`customerId=${a.customerId}&statuses=paused`);
    expect(paused.json.data.map((s: { id: string }) => s.id)).toEqual([mine[0]]);
    expect((await list(`customerId=${b.customerId}&search=${mine[0]}`)).json.totalCount).toBe(0);
    // Whatever the organization's size: one Query of the customer's partition, no read of the organization's listing.
    const merchant = (await getMerchant(org.organizationId))!;
    const counted = await countDynamoCalls(() =>
      listSubscriptions(merchant, { customerId: a.customerId, sortBy: 'createdAt', sortDirection: 'desc', offset: 0, limit: 20, showTestData: true }),
    );
    expect(counted.result.totalCount).toBe(3);
    expect(counted.calls.filter((c) => c === 'Query' || c === 'Scan')).toEqual(['Query']);
  });

  it("list one subscription's payments from its own partition, as the organization's list filtered to it, in every sort, and index those written before it", async () => {
    const org = await organizationAccount('Subscription payments shop');
    const plan = await monthlyPlan(org);
    const a = await customerWithCard(org);
    const [mine, other] = [await subscribe(org, a, plan.id), await subscribe(org, a, plan.id)];
    const clock = (await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey })).json.data;
    expect((await advance(org, new Date(Date.parse(clock.now) + 35 * 86_400_000).toISOString())).status).toBe(200);
    // A payment of the same customer that no subscription made.
    expect((await payByCard(org, 7)).status).toBe(201);
    type Listed = { id: string; subscriptionId: string | null };
    const list = (query: string) => orgCall('GET', `${orgPath(org.organizationId)}/transactions?${query}`, { fullKey: org.fullKey });
    for (const sortBy of ['createdAt', 'updatedAt', 'title', 'customerName', 'date', 'paymentType', 'gatewayName']) {
      for (const sortDirection of ['asc', 'desc']) {
        const everyone = (await list(`sortBy=${sortBy}&sortDirection=${sortDirection}&limit=100`)).json.data as Listed[];
        expect(everyone).toHaveLength(5);
        const ofMine = everyone.filter((t) => t.subscriptionId === mine);
        expect(ofMine).toHaveLength(2);
        const page = await list(`subscriptionId=${mine}&sortBy=${sortBy}&sortDirection=${sortDirection}&limit=1&offset=1`);
        expect(page.status, page.text).toBe(200);
        expect(page.json.totalCount).toBe(2);
        expect(page.json.data, `${sortBy} ${sortDirection}`).toEqual(ofMine.slice(1, 2));
      }
    }
    const completed = await list(`subscriptionId=${other}&combinedStatuses=completed`);
    expect(completed.json.data.map((t: Listed) => t.subscriptionId)).toEqual([other, other]);
    expect((await list(`subscriptionId=${other}&combinedStatuses=declined`)).json.totalCount).toBe(0);
    // Whatever the organization's size: one Query of the subscription's partition, no read of the organization's listing.
    const query = { limit: 20, offset: 0, sortDirection: 'desc', sortBy: 'title', showTestData: true, subscriptionId: mine } as const;
    const counted = await countDynamoCalls(() => listTransactions(org.organizationId, query));
    expect(counted.result.totalCount).toBe(2);
    expect(counted.calls.filter((c) => c === 'Query' || c === 'Scan')).toEqual(['Query']);

    // As a payment last written before the index: not on it until the operator's command.
    const [first] = (await list(`subscriptionId=${mine}&sortDirection=asc`)).json.data as Listed[];
    await db.send(new UpdateCommand({ TableName: tableName(), Key: TransactionEntity.key({ id: first!.id }), UpdateExpression: 'REMOVE gsi5pk' }));
    expect((await listTransactions(org.organizationId, query)).totalCount).toBe(1);
    expect(JSON.parse((await adminCli({}, 'index-records', '--json')).stdout).indexed).toBeGreaterThanOrEqual(1);
    expect((await listTransactions(org.organizationId, query)).data.map((t) => t.id)).toContain(first!.id);
  });

  it('hand an advance that outruns its request to the background, which runs every step at the instant it fell due, then lets the clock go at its target', async () => {
    const org = await organizationAccount('Long advance shop');
    const plan = await monthlyPlan(org);
    const id = await subscribe(org, await customerWithCard(org), plan.id);
    const clock = (await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey })).json.data;
    const to = new Date(Date.parse(clock.now) + 400 * 86_400_000).toISOString();
    const merchant = (await getMerchant(org.organizationId))!;
    // A request with no time to run a step: it hands the whole advance off at once.
    const answered = await advanceTestClock(merchant, to, 0);
    expect(answered).toMatchObject({ status: 'advancing', advancingTo: to });
    const pause = await orgCall('POST', `${orgPath(org.organizationId)}/subscription-pauses`, { fullKey: org.fullKey, body: { subscriptionId: id } });
    expect([pause.status, pause.json.errorCode]).toEqual([409, 'test_clock.advancing']);
    // A renewal message the sweep queued meanwhile does nothing: its one read finds the clock advancing.
    const worker = await countDynamoCalls(() => renewQueued(JSON.stringify({ subscriptionId: id, organizationId: org.organizationId })));
    expect(worker.calls).toEqual(['BatchGetItem']);
    await expect
      .poll(async () => (await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey })).json.data.status, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe('ready');
    const after = (await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey })).json.data;
    expect(after.now >= to).toBe(true);
    // The first period and 13 renewals, each charged at the instant it fell due (its month's), none twice.
    const { charges } = await subscriptionCharges(merchant, id, 50);
    expect(charges.map((c) => c.status)).toEqual(Array(14).fill('completed'));
    const months = charges.map((c) => c.chargedAt.slice(0, 7));
    expect(new Set(months).size).toBe(14);
    expect(charges.filter((c) => c.chargedAt > to)).toEqual([]);
    expect((await getSub(org, id)).json.data.status).toBe('active');
  });

  it('charge the prorated difference of an items change for the rest of the period, or carry a credit', async () => {
    const org = await organizationAccount('Upgrade shop');
    const small = await monthlyPlan(org);
    const big = await monthlyPlan(org, { pricing: { price: 40, formula: 'fixed-fee' } });
    const { customerId, paymentInstrumentId } = await customerWithCard(org);
    const year = await onJanuary31(org);
    const sub = (await orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { customerId, paymentInstrumentId, items: [{ plan: small.id }] } }))
      .json.data;
    // Half way through a 28-day period (Jan 31 → Feb 28): 14 days of the 30 more a month.
    expect((await advance(org, `${year}-02-14T10:00:00.000Z`)).status).toBe(200);
    const upgraded = await orgCall('PUT', `${subscriptions(org)}/${sub.id}/items`, {
      fullKey: org.fullKey,
      body: { items: [{ plan: big.id }], proRataCredit: true },
    });
    expect(upgraded.status, upgraded.text).toBe(200);
    expect(upgraded.json.data).toMatchObject({ price: 40, nextCharge: sub.nextCharge });
    const charges = await chargesOf(org, sub.id);
    expect(charges.map((t) => t.amount)).toEqual([10, 15]);
    // Its receipt names what it paid, as its invoice does: the rest of the period, from the change.
    const email = (await orgCall('GET', `${orgPath(org.organizationId)}/customers/${customerId}`, { fullKey: org.fullKey })).json.data.email as string;
    const receipts = await mailsArrived(email, 'receipt', 2);
    expect(receipts.map((m) => m.text.split('\n')[0]!.replace(/.* for /, ''))).toEqual([`${year}-01-31 to ${year}-02-28.`, `${year}-02-14 to ${year}-02-28.`]);

    const downgraded = await orgCall('PUT', `${subscriptions(org)}/${sub.id}/items`, {
      fullKey: org.fullKey,
      body: { items: [{ plan: small.id }], proRataCredit: true },
    });
    expect(downgraded.status, downgraded.text).toBe(200);
    expect(downgraded.json.data.credit).toBe(15);
    expect(await chargesOf(org, sub.id)).toHaveLength(2);
    // The next renewal (10) is paid by the credit; the one after is charged.
    expect((await advance(org, `${year}-04-01T00:00:00.000Z`)).status).toBe(200);
    expect((await chargesOf(org, sub.id)).map((t) => t.amount)).toEqual([10, 15, 5]);
  });

  it('invoice an upgrade the credit carried pays in full, charging nothing', async () => {
    const org = await organizationAccount('Upgrade paid by credit shop');
    const small = await monthlyPlan(org);
    const big = await monthlyPlan(org, { pricing: { price: 40, formula: 'fixed-fee' } });
    const { customerId, paymentInstrumentId } = await customerWithCard(org);
    const year = await onJanuary31(org);
    const sub = (await orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { customerId, paymentInstrumentId, items: [{ plan: big.id }] } })).json
      .data;
    const change = (plan: string) =>
      orgCall('PUT', `${subscriptions(org)}/${sub.id}/items`, { fullKey: org.fullKey, body: { items: [{ plan }], proRataCredit: true } });
    // Half way through the period, down to 10: 20.00 unused less 5.00 for the half left, 15.00 of credit; back up to
    // 40 at once: 20.00 for the half left less 5.00 unused, all of it paid by that credit.
    expect((await advance(org, `${year}-02-14T10:00:00.000Z`)).status).toBe(200);
    expect((await change(small.id)).json.data.credit).toBe(15);
    const up = await change(big.id);
    expect(up.status, up.text).toBe(200);
    expect(up.json.data).toMatchObject({ price: 40, credit: 0 });
    expect((await chargesOf(org, sub.id)).map((t) => t.amount)).toEqual([40]);
    const invoices = await call('GET', `/v1/public-api/merchants/${org.organizationId}/invoices?limit=20`, { key: org.merchantApiKey });
    expect(invoices.status, invoices.text).toBe(200);
    const paidByCredit = (invoices.json.data as Array<{ totalAmount: number; status: string; items: Array<{ description: string; amount: number }> }>).filter(
      (i) => i.totalAmount === 0,
    );
    expect(paidByCredit).toHaveLength(1);
    expect(paidByCredit[0]).toMatchObject({ status: 'paid' });
    expect(paidByCredit[0]!.items.map((i) => [i.description.replace(/ \(.*\)$/, ''), i.amount])).toEqual([
      [`${big.name} for the rest of the period`, 20],
      [`Unused time of ${small.name}`, -5],
      ['Credit applied', -15],
    ]);
  });

  it('sweep what is due into the renewal worker: a duplicate message or a second sweep charges nothing twice', async () => {
    const org = await organizationAccount('Swept shop');
    const plan = await orgPlan(
      org,
      { pricing: { price: 3, formula: 'fixed-fee' }, recurringInterval: { unit: 'day', length: 1 } },
      { productType: 'recurring' },
    );
    const { customerId, paymentInstrumentId } = await customerWithCard(org);
    const sub = (await orgCall('POST', subscriptions(org), { fullKey: org.fullKey, body: { customerId, paymentInstrumentId, items: [{ plan: plan.id }] } }))
      .json.data;
    const queued: string[] = [];
    // A sweep a day and a minute later in real time finds it due (and other tests' subscriptions: only ours is run).
    const later = new Date(Date.now() + 86_460_000);
    await sweepDue(later, async (due) => void queued.push(...due.map((d) => d.subscriptionId)));
    expect(queued).toContain(sub.id);
    // Claimed: a second sweep does not queue it again (it may queue what other tests made due meanwhile).
    const again: string[] = [];
    await sweepDue(later, async (due) => void again.push(...due.map((d) => d.subscriptionId)));
    expect(again).not.toContain(sub.id);
    // The worker on real time finds nothing due yet: no charge, and it puts the subscription back where it belongs.
    await renewQueued(JSON.stringify({ subscriptionId: sub.id, organizationId: org.organizationId }));
    expect(await chargesOf(org, sub.id)).toHaveLength(1);
    // Two workers at once a day later (a duplicate message): one renewal charge.
    const stored = (await getSubscriptionById(sub.id))!;
    const organization = (await getMerchant(org.organizationId))!;
    await Promise.all([runDue(organization, stored, later.toISOString(), 0), runDue(organization, stored, later.toISOString(), 0)]);
    expect((await chargesOf(org, sub.id)).map((t) => t.status)).toEqual(['completed', 'completed']);
    expect((await getSubscriptionById(sub.id))!.periodIndex).toBe(1);
  });
});
