/**
 * Cancellations, pauses and reactivations of subscriptions through the local gateway, on each organization's own
 * sandbox test clock: cancel now with a prorated refund, cancel at the next renewal, drafts and revokes, pause and
 * resume (the unused time kept as credit), and bringing a canceled subscription back.
 */
import { describe, expect, it } from 'vitest';
import { advanceDispute } from '../../../shared/payments/disputes.service.ts';
import { getMerchant } from '../../../shared/people/index.ts';
import { verifyWebhook } from '../../../shared/webhooks/verify.ts';
import { createDestination } from '../../../shared/webhooks/webhooks.service.ts';
import { call, cardToken, organizationAccount, orgCall, orgPath, orgPlan, uniqueEmail } from '../../support/fixtures.ts';
import { bodyOf, eventually, startReceiver } from '../../support/receiver.ts';
import { eventItemsOf } from '../../support/events.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const path = (org: Org, rest: string) => `${orgPath(org.organizationId)}${rest}`;
const post = (org: Org, rest: string, body: unknown) => orgCall('POST', path(org, rest), { fullKey: org.fullKey, body });
const patch = (org: Org, rest: string, body: unknown) => orgCall('PATCH', path(org, rest), { fullKey: org.fullKey, body });
const get = (org: Org, rest: string) => orgCall('GET', path(org, rest), { fullKey: org.fullKey });
const advance = async (org: Org, to: string) => expect((await post(org, '/test-clock/advance', { to })).status).toBe(200);
const subscriptionOf = async (org: Org, id: string) => (await get(org, `/subscriptions/${id}`)).json.data;
const chargesOf = async (org: Org, subscriptionId: string) =>
  (
    (await get(org, `/transactions?subscriptionId=${subscriptionId}&limit=100&sortDirection=asc`)).json.data as Array<{
      id: string;
      status: string;
      amount: number;
    }>
  ).map((t) => [t.status, t.amount]);
const eventsOf = async (org: Org, type: string) =>
  (await eventItemsOf(org.organizationId)).filter((e) => e.type === type).map((e) => e.payload as Record<string, unknown>);

/** A new organization with a monthly 10 USD subscription that started on Jan 31 next year at 10:00 UTC (its clock). */
async function subscribed(name: string, before?: (org: Org) => Promise<void>) {
  const org = await organizationAccount(name);
  await before?.(org);
  const plan = await orgPlan(org, { pricing: { price: 10, formula: 'fixed-fee' } }, { productType: 'recurring' });
  const customer = await post(org, '/customers', { email: uniqueEmail('subscriber'), primaryAddress: { customerAddress: { country: 'US', region: 'OR' } } });
  const customerId = customer.json.data.id as string;
  const attached = await post(org, `/customers/${customerId}/payment-instruments`, { token: await cardToken(org) });
  const year = new Date().getUTCFullYear() + 1;
  await advance(org, `${year}-01-31T10:00:00.000Z`);
  const created = await post(org, '/subscriptions', { customerId, paymentInstrumentId: attached.json.data.id, items: [{ plan: plan.id }] });
  expect(created.status, created.text).toBe(201);
  return { org, year, customerId, sub: created.json.data as Record<string, any> & { id: string } };
}

describe('subscription cancellations', () => {
  it('cancel now with the unused part of the period refunded and recorded as line items', async () => {
    const { org, year, sub } = await subscribed('Cancel now shop');
    await advance(org, `${year}-02-14T10:00:00.000Z`); // 14 of the 28 days of Jan 31 → Feb 28 left
    const res = await post(org, '/subscription-cancellations', { subscriptionId: sub.id, churnTimePolicy: 'now', prorated: true, reason: 'too-expensive' });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({
      status: 'completed',
      cancelledBy: 'merchant',
      reason: 'too-expensive',
      prorated: true,
      lineItemsSubtotal: { amount: -5, currency: 'USD' },
    });
    expect(res.json.data.lineItems).toMatchObject([{ type: 'credit', unitPriceAmount: 5, unitPriceCurrency: 'USD', quantity: 1 }]);
    expect(res.json.data.proratedInvoiceId).toMatch(/^inv_/);
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'canceled', nextCharge: null });
    const [paid] = (await get(org, `/transactions?subscriptionId=${sub.id}`)).json.data;
    const refunds = await get(org, `/transactions/${paid.id}/refunds`);
    expect(refunds.json.data.map((r: { amount: number; status: string }) => [r.status, r.amount])).toEqual([['refunded', 5]]);
    expect((await eventsOf(org, 'subscription.cancelled')).map((e) => e.cancelAtPeriodEnd)).toEqual([false]);
    // Nothing renews after.
    await advance(org, `${year}-04-01T00:00:00.000Z`);
    expect(await chargesOf(org, sub.id)).toEqual([['partially-refunded', 10]]);
  });

  it('cancel now after the merchant refunded part of the period: the unused part refunded, at most what is left of the payment', async () => {
    // Half of the 10 USD period unused (5) on Feb 14: after a refund of 2 all of it is refunded; after one of 7, the 3 left.
    for (const [refunded, owed] of [
      [2, 5],
      [7, 3],
    ] as const) {
      const { org, year, sub } = await subscribed(`Partly refunded shop ${refunded}`);
      await advance(org, `${year}-02-14T10:00:00.000Z`);
      const [paid] = (await get(org, `/transactions?subscriptionId=${sub.id}`)).json.data;
      expect((await post(org, `/transactions/${paid.id}/refunds`, { amount: refunded, reason: 'Goodwill' })).status).toBe(201);
      const res = await post(org, '/subscription-cancellations', { subscriptionId: sub.id, churnTimePolicy: 'now', prorated: true });
      expect(res.status, res.text).toBe(201);
      expect(res.json.data).toMatchObject({ status: 'completed', lineItemsSubtotal: { amount: -owed, currency: 'USD' } });
      const refunds = await get(org, `/transactions/${paid.id}/refunds?sortDirection=asc`);
      expect(refunds.json.data.map((r: { amount: number }) => r.amount).sort()).toEqual([refunded, owed].sort());
      expect(await chargesOf(org, sub.id)).toEqual([[refunded + owed === 10 ? 'refunded' : 'partially-refunded', 10]]);
    }
  });

  it("cancel now, prorated, with the period's payment disputed: the subscription ends, and nothing is refunded (the dispute decides)", async () => {
    const { org, year, sub } = await subscribed('Disputed shop');
    await advance(org, `${year}-02-14T10:00:00.000Z`);
    const [paid] = (await get(org, `/transactions?subscriptionId=${sub.id}`)).json.data;
    const disputed = await post(org, `/disputes/dsp-${sub.id}`, {
      transactionId: paid.id,
      currency: 'USD',
      amount: 10,
      reasonCode: '13.2',
      type: 'consumer-disputes',
      status: 'response-needed',
      postedAt: `${year}-02-13T10:00:00Z`,
    });
    expect(disputed.status, disputed.text).toBe(201);
    const res = await post(org, '/subscription-cancellations', { subscriptionId: sub.id, churnTimePolicy: 'now', prorated: true });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ status: 'completed', prorated: true, lineItems: [], lineItemsSubtotal: null, proratedInvoiceId: null });
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'canceled', nextCharge: null });
    expect((await get(org, `/transactions/${paid.id}/refunds`)).json.data).toEqual([]);
  });

  it("cancel now, prorated, after the period's payment's dispute was decided: what the dispute left is refunded", async () => {
    // Half of the 10 USD period unused (5) on Feb 14: all of it after a won dispute; after one lost for 7, the 3 left.
    for (const [outcome, owed] of [
      ['won', 5],
      ['lost', 3],
    ] as const) {
      const { org, year, sub } = await subscribed(`Decided dispute shop ${outcome}`);
      await advance(org, `${year}-02-14T10:00:00.000Z`);
      const [paid] = (await get(org, `/transactions?subscriptionId=${sub.id}`)).json.data;
      const disputeId = `dsp-${sub.id}`;
      const amount = outcome === 'won' ? 10 : 7;
      expect((await post(org, `/disputes/${disputeId}`, { transactionId: paid.id, currency: 'USD', amount, postedAt: `${year}-02-13T10:00:00Z` })).status).toBe(
        201,
      );
      await advanceDispute(org.organizationId, disputeId, outcome);
      const res = await post(org, '/subscription-cancellations', { subscriptionId: sub.id, churnTimePolicy: 'now', prorated: true });
      expect(res.status, res.text).toBe(201);
      expect(res.json.data).toMatchObject({ status: 'completed', lineItemsSubtotal: { amount: -owed, currency: 'USD' } });
      expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'canceled' });
      const refunds = (await get(org, `/transactions/${paid.id}/refunds`)).json.data;
      expect(
        refunds.map((r: { amount: number; status: string }) => [r.status, r.amount]),
        outcome,
      ).toEqual([['refunded', owed]]);
    }
  });

  it("cancel now after a prorated upgrade: the period's unused value refunded from its payments, newest first", async () => {
    const { org, year, sub } = await subscribed('Upgrade then cancel shop');
    const bigger = await orgPlan(org, { pricing: { price: 40, formula: 'fixed-fee' } }, { productType: 'recurring' });
    // Feb 14, 14 of the 28 days left: 14/28 of 40 charged, 14/28 of 10 credited: 15.
    await advance(org, `${year}-02-14T10:00:00.000Z`);
    const upgraded = await orgCall('PUT', path(org, `/subscriptions/${sub.id}/items`), {
      fullKey: org.fullKey,
      body: { items: [{ plan: bigger.id, quantity: 1 }], retainRenewalTime: 'retain', proRataCredit: true },
    });
    expect(upgraded.status, upgraded.text).toBe(200);
    expect(await chargesOf(org, sub.id)).toEqual([
      ['completed', 10],
      ['completed', 15],
    ]);
    // The upgrade's invoice nets the old plan's unused time on a line of its own, negative (the answer is held to its
    // contract, as every answer of these tests).
    const invoices = await call('GET', `/v1/public-api/merchants/${org.organizationId}/invoices?limit=20`, { key: org.merchantApiKey });
    expect(invoices.status, invoices.text).toBe(200);
    const lines = (invoices.json.data as Array<{ items: Array<{ description: string; amount: number }> }>).flatMap((i) => i.items);
    expect(lines.find((l) => l.description.startsWith('Unused time of'))).toMatchObject({ amount: -5 });
    // Feb 21, 7 days left of a period now worth 40: 10, all of it from the upgrade's 15.
    await advance(org, `${year}-02-21T10:00:00.000Z`);
    const res = await post(org, '/subscription-cancellations', { subscriptionId: sub.id, churnTimePolicy: 'now', prorated: true });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ status: 'completed', lineItemsSubtotal: { amount: -10, currency: 'USD' } });
    expect(res.json.data.lineItems).toMatchObject([{ type: 'credit', unitPriceAmount: 10, description: expect.stringContaining('Unused time of') }]);
    expect(await chargesOf(org, sub.id)).toEqual([
      ['completed', 10],
      ['partially-refunded', 15],
    ]);
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'canceled' });

    // At the upgrade's own instant, 14/28 of 40 unused (20): the upgrade's 15 back in full, then 5 of the first 10.
    const again = await subscribed('Upgrade then cancel at once shop');
    const biggerToo = await orgPlan(again.org, { pricing: { price: 40, formula: 'fixed-fee' } }, { productType: 'recurring' });
    await advance(again.org, `${again.year}-02-14T10:00:00.000Z`);
    const up = await orgCall('PUT', path(again.org, `/subscriptions/${again.sub.id}/items`), {
      fullKey: again.org.fullKey,
      body: { items: [{ plan: biggerToo.id, quantity: 1 }], retainRenewalTime: 'retain', proRataCredit: true },
    });
    expect(up.status, up.text).toBe(200);
    const cancelled = await post(again.org, '/subscription-cancellations', { subscriptionId: again.sub.id, churnTimePolicy: 'now', prorated: true });
    expect(cancelled.status, cancelled.text).toBe(201);
    expect(cancelled.json.data.lineItemsSubtotal).toEqual({ amount: -20, currency: 'USD' });
    const [first, upgrade] = (await get(again.org, `/transactions?subscriptionId=${again.sub.id}&sortDirection=asc`)).json.data;
    const refundsOf = async (id: string) =>
      (await get(again.org, `/transactions/${id}/refunds`)).json.data.map((r: { amount: number; status: string }) => [r.status, r.amount]);
    expect(await refundsOf(upgrade.id)).toEqual([['refunded', 15]]);
    expect(await refundsOf(first.id)).toEqual([['refunded', 5]]);
    expect(await chargesOf(again.org, again.sub.id)).toEqual([
      ['partially-refunded', 10],
      ['refunded', 15],
    ]);
  });

  it('cancel a paused subscription now, prorated: the credit its pause kept is refunded, and none is left on it', async () => {
    const { org, year, sub } = await subscribed('Pause then cancel shop');
    await advance(org, `${year}-02-14T10:00:00.000Z`);
    const paused = await post(org, '/subscription-pauses', { subscriptionId: sub.id, endAt: null, pausedBy: 'customer' });
    expect(paused.status, paused.text).toBe(201);
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'paused', credit: 5 });
    await advance(org, `${year}-03-20T10:00:00.000Z`);
    const res = await post(org, '/subscription-cancellations', { subscriptionId: sub.id, churnTimePolicy: 'now', prorated: true });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ status: 'completed', lineItemsSubtotal: { amount: -5, currency: 'USD' } });
    expect(res.json.data.lineItems).toMatchObject([{ type: 'credit', unitPriceAmount: 5, description: expect.stringContaining('Credit left on') }]);
    expect(await chargesOf(org, sub.id)).toEqual([['partially-refunded', 10]]);
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'canceled', credit: 0 });
    expect((await get(org, `/subscription-pauses/${paused.json.data.id}`)).json.data.status).toBe('completed');
  });

  it('cancel at the next renewal (the default): the period runs out, nothing more is charged, one event says so', async () => {
    const { org, year, sub, customerId } = await subscribed('Cancel later shop');
    const res = await post(org, '/subscription-cancellations', { subscriptionId: sub.id });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ status: 'confirmed', churnTimePolicy: 'at-next-renewal', churnedAt: sub.nextCharge });
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'active', nextCharge: null, endTime: sub.nextCharge });
    // One open cancellation per subscription.
    const again = await post(org, '/subscription-cancellations', { subscriptionId: sub.id, churnTimePolicy: 'now' });
    expect(again.status).toBe(409);
    expect(again.json.errorCode).toBe('subscription_cancellation.already_open');

    await advance(org, `${year}-03-15T00:00:00.000Z`);
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'canceled', endTime: sub.nextCharge });
    expect((await get(org, `/subscription-cancellations/${res.json.data.id}`)).json.data.status).toBe('completed');
    expect(await chargesOf(org, sub.id)).toEqual([['completed', 10]]);
    expect(await eventsOf(org, 'subscription.cancelled')).toEqual([
      { subscriptionId: sub.id, externalMembershipId: null, cancelAtPeriodEnd: true, orderId: null, customerId },
    ]);
    const list = await get(org, '/subscription-cancellations?statuses=completed');
    expect(list.json.data.map((c: { id: string }) => c.id)).toEqual([res.json.data.id]);
  });

  it('refuse a prorated cancellation that would end the subscription later than now: nothing made, nothing changed', async () => {
    const { org, year, sub } = await subscribed('Prorated later shop');
    await advance(org, `${year}-02-14T10:00:00.000Z`);
    for (const timing of [{}, { churnTimePolicy: 'at-next-renewal' }, { cancelAt: `${year}-02-20T10:00:00.000Z` }]) {
      const res = await post(org, '/subscription-cancellations', { subscriptionId: sub.id, prorated: true, ...timing });
      expect(res.status, res.text).toBe(422);
      expect(res.json.errorCode).toBe('subscription_cancellation.prorated_not_now');
    }
    expect((await get(org, '/subscription-cancellations')).json.totalCount).toBe(0);
    // A draft to end it now, prorated, cannot be moved to a later end either; confirmed as it is, it refunds.
    const draft = await post(org, '/subscription-cancellations', { subscriptionId: sub.id, prorated: true, churnTimePolicy: 'now', status: 'draft' });
    expect(draft.status, draft.text).toBe(201);
    const later = await patch(org, `/subscription-cancellations/${draft.json.data.id}`, { churnTimePolicy: 'at-next-renewal', status: 'confirmed' });
    expect(later.status, later.text).toBe(422);
    expect(later.json.errorCode).toBe('subscription_cancellation.prorated_not_now');
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'active', endTime: null });
    const now = await patch(org, `/subscription-cancellations/${draft.json.data.id}`, { status: 'confirmed' });
    expect(now.status, now.text).toBe(200);
    expect(now.json.data).toMatchObject({ status: 'completed', lineItemsSubtotal: { amount: -5, currency: 'USD' } });
  });

  it('cancel at the next renewal, then pause: it ends as scheduled, unrefunded, and its credit pays part of a reactivation', async () => {
    const { org, year, sub } = await subscribed('Cancel then pause shop');
    expect((await post(org, '/subscription-cancellations', { subscriptionId: sub.id })).status).toBe(201);
    await advance(org, `${year}-02-14T10:00:00.000Z`);
    expect((await post(org, '/subscription-pauses', { subscriptionId: sub.id, endAt: null, pausedBy: 'customer' })).status).toBe(201);
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'paused', credit: 5, endTime: sub.nextCharge });
    await advance(org, `${year}-03-03T12:00:00.000Z`);
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'canceled', credit: 5, endTime: sub.nextCharge });
    expect(await chargesOf(org, sub.id)).toEqual([['completed', 10]]);
    const back = await post(org, '/subscription-reactivations', { subscriptionId: sub.id });
    expect(back.status, back.text).toBe(201);
    expect(await chargesOf(org, sub.id)).toEqual([
      ['completed', 10],
      ['completed', 5],
    ]);
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'active', credit: 0 });
  });

  it('keep a draft without effect until it is confirmed, and revoke a confirmed one before it takes effect', async () => {
    const { org, year, sub } = await subscribed('Draft shop');
    const draft = await post(org, '/subscription-cancellations', { subscriptionId: sub.id, status: 'draft', description: 'Asked by phone' });
    expect(draft.status, draft.text).toBe(201);
    expect(draft.json.data).toMatchObject({ status: 'draft', cancelledAt: null });
    expect((await subscriptionOf(org, sub.id)).nextCharge).toBe(sub.nextCharge);
    // Under a draft the subscription runs: a reactivation that does not name it has nothing to revoke.
    const running = await post(org, '/subscription-reactivations', { subscriptionId: sub.id });
    expect(running.status, running.text).toBe(422);
    expect(running.json.errorCode).toBe('subscription.not_reactivatable');
    expect((await get(org, `/subscription-cancellations/${draft.json.data.id}`)).json.data.status).toBe('draft');

    const confirmed = await patch(org, `/subscription-cancellations/${draft.json.data.id}`, { status: 'confirmed' });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.json.data).toMatchObject({ status: 'confirmed', churnedAt: sub.nextCharge });
    const revoked = await patch(org, `/subscription-cancellations/${draft.json.data.id}`, { status: 'revoked' });
    expect(revoked.json.data.status).toBe('revoked');
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'active', nextCharge: sub.nextCharge, endTime: null });
    const closed = await patch(org, `/subscription-cancellations/${draft.json.data.id}`, { reason: 'other' });
    expect(closed.status).toBe(422);
    expect(closed.json.errorCode).toBe('subscription_cancellation.closed');

    await advance(org, `${year}-03-01T00:00:00.000Z`);
    expect(await chargesOf(org, sub.id)).toEqual([
      ['completed', 10],
      ['completed', 10],
    ]);
    expect(await eventsOf(org, 'subscription.cancelled')).toEqual([]);
  });
});

describe('subscription pauses', () => {
  it('pause with the unused time kept as credit, charge nothing while paused, and resume into a new period', async () => {
    const { org, year, sub } = await subscribed('Pause shop');
    await advance(org, `${year}-02-14T10:00:00.000Z`);
    const paused = await post(org, '/subscription-pauses', { subscriptionId: sub.id, endAt: `${year}-03-10T10:00:00.000Z`, pausedBy: 'customer' });
    expect(paused.status, paused.text).toBe(201);
    expect(paused.json.data).toMatchObject({ status: 'active', pausedBy: 'customer', endAt: `${year}-03-10T10:00:00.000Z` });
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'paused', credit: 5 });

    await advance(org, `${year}-04-01T00:00:00.000Z`);
    const after = await subscriptionOf(org, sub.id);
    expect(after).toMatchObject({ status: 'active', currentPeriodStart: `${year}-03-10T10:00:00.000Z`, credit: 0 });
    expect(after.nextCharge.slice(0, 10)).toBe(`${year}-04-10`);
    // No renewal on Feb 28 while paused; the resumed period charged 10 less the 5 kept.
    expect(await chargesOf(org, sub.id)).toEqual([
      ['completed', 10],
      ['completed', 5],
    ]);
    expect((await get(org, `/subscription-pauses/${paused.json.data.id}`)).json.data.status).toBe('completed');
  });

  it('end a pause at once by deleting it (the subscription resumes), and let a pending one never take effect', async () => {
    const { org, year, sub } = await subscribed('Resume shop');
    const later = await post(org, '/subscription-pauses', { subscriptionId: sub.id, effectiveAt: `${year}-02-20T00:00:00.000Z` });
    expect(later.json.data.status).toBe('pending');
    const dropped = await orgCall('DELETE', path(org, `/subscription-pauses/${later.json.data.id}`), { fullKey: org.fullKey });
    expect(dropped.status, dropped.text).toBe(200);
    expect(dropped.json.data.status).toBe('completed');
    expect((await subscriptionOf(org, sub.id)).status).toBe('active');

    const now = await post(org, '/subscription-pauses', { subscriptionId: sub.id });
    expect(now.json.data).toMatchObject({ status: 'active', endAt: null });
    expect((await post(org, '/subscription-pauses', { subscriptionId: sub.id })).status).toBe(409);
    await advance(org, `${year}-03-05T10:00:00.000Z`);
    expect((await subscriptionOf(org, sub.id)).status).toBe('paused');
    const ended = await orgCall('DELETE', path(org, `/subscription-pauses/${now.json.data.id}`), { fullKey: org.fullKey });
    expect(ended.json.data.status).toBe('completed');
    const resumed = await subscriptionOf(org, sub.id);
    expect(resumed.status).toBe('active');
    expect(resumed.currentPeriodStart.slice(0, 10)).toBe(`${year}-03-05`);
    // Paused a moment after it was paid, so the credit kept pays the whole resumed period: no second charge.
    expect(resumed.credit).toBe(0);
    expect(await chargesOf(org, sub.id)).toEqual([['completed', 10]]);
    const list = await get(org, '/subscription-pauses');
    expect(list.json.totalCount).toBe(2);
  });
});

describe('subscription reactivations', () => {
  it('bring a canceled subscription back with a new period charged, sending subscription.created again', async () => {
    const { org, year, sub } = await subscribed('Comeback shop');
    await post(org, '/subscription-cancellations', { subscriptionId: sub.id, churnTimePolicy: 'now' });
    await advance(org, `${year}-03-03T12:00:00.000Z`);
    const back = await post(org, '/subscription-reactivations', { subscriptionId: sub.id, description: 'Came back' });
    expect(back.status, back.text).toBe(201);
    expect(back.json.data).toMatchObject({ subscriptionId: sub.id, cancellationId: null, description: 'Came back' });
    expect(back.json.data.transactionId).toBeTruthy();
    const after = await subscriptionOf(org, sub.id);
    expect(after.status).toBe('active');
    expect(after.currentPeriodStart.slice(0, 13)).toBe(`${year}-03-03T12`);
    expect(after.nextCharge.slice(0, 10)).toBe(`${year}-04-03`);
    expect(await chargesOf(org, sub.id)).toEqual([
      ['completed', 10],
      ['completed', 10],
    ]);
    expect(await eventsOf(org, 'subscription.created')).toHaveLength(2);
    expect((await get(org, '/subscription-reactivations')).json.totalCount).toBe(1);
  });

  it('revoke a confirmed cancellation through a reactivation: the subscription carries on, nothing is charged', async () => {
    const { org, year, sub } = await subscribed('Changed mind shop');
    const cancellation = (await post(org, '/subscription-cancellations', { subscriptionId: sub.id })).json.data;
    const res = await post(org, '/subscription-reactivations', { subscriptionId: sub.id, cancellationId: cancellation.id });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ cancellationId: cancellation.id, transactionId: null });
    expect((await get(org, `/subscription-cancellations/${cancellation.id}`)).json.data.status).toBe('revoked');
    expect(await subscriptionOf(org, sub.id)).toMatchObject({ status: 'active', nextCharge: sub.nextCharge, endTime: null });
    await advance(org, `${year}-03-01T00:00:00.000Z`);
    expect(await chargesOf(org, sub.id)).toHaveLength(2);
    // A subscription that runs with nothing to revoke cannot be reactivated.
    const refused = await post(org, '/subscription-reactivations', { subscriptionId: sub.id });
    expect(refused.status).toBe(422);
    expect(refused.json.errorCode).toBe('subscription.not_reactivatable');
  });
});

describe('subscription webhooks', () => {
  it("deliver each event of a subscription's life once, signed: created, its payments, and cancelled", async () => {
    const receiver = await startReceiver();
    try {
      let secret = '';
      const { org, year, sub, customerId } = await subscribed('Webhook shop', async (o) => {
        const destination = await createDestination((await getMerchant(o.organizationId))!, {
          url: receiver.url,
          eventTypes: ['subscription.created', 'subscription.cancelled', 'payment.completed'],
        });
        secret = destination.secret;
      });
      await advance(org, `${year}-03-01T00:00:00.000Z`); // the Feb 28 renewal
      await post(org, '/subscription-cancellations', { subscriptionId: sub.id, churnTimePolicy: 'now' });
      const back = await post(org, '/subscription-reactivations', { subscriptionId: sub.id });
      expect(back.status, back.text).toBe(201);
      // Created and its first payment, a renewal's payment, the cancellation, the reactivation's payment and
      // subscription.created again.
      await eventually(() => (receiver.received.length >= 6 ? true : undefined), 25_000, 'six deliveries');
      await new Promise((r) => setTimeout(r, 1_000)); // anything more would arrive by now
      expect(receiver.received).toHaveLength(6);
      for (const got of receiver.received) {
        expect(verifyWebhook({ rawBody: got.rawBody, headers: got.headers as Record<string, string>, secret, toleranceSeconds: 300 }).ok).toBe(true);
      }
      const bodies = receiver.received.map(bodyOf);
      const payments = bodies.filter((b) => 'transactionId' in b);
      expect(payments.map((b) => [b.subscriptionId, b.customerId, b.amount])).toEqual([
        [sub.id, customerId, 10],
        [sub.id, customerId, 10],
        [sub.id, customerId, 10],
      ]);
      expect(new Set(payments.map((b) => b.transactionId)).size).toBe(3);
      const memberships = bodies.filter((b) => !('transactionId' in b));
      const created = { subscriptionId: sub.id, externalMembershipId: null, orderId: null, customerId, merchantId: org.organizationId };
      // Deliveries are concurrent, so their order is not the events' order.
      expect(memberships.filter((b) => !('cancelAtPeriodEnd' in b))).toEqual([created, created]);
      expect(memberships.filter((b) => 'cancelAtPeriodEnd' in b)).toEqual([{ ...created, cancelAtPeriodEnd: false }]);
    } finally {
      await receiver.close();
    }
  });
});
