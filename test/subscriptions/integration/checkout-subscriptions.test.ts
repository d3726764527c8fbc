/**
 * Recurring plans bought at checkout, through the local gateway and on each organization's sandbox test clock: the
 * card saved as the customer's instrument, the subscription started with the payment's settlement (once, also when
 * the reconciler settles it), a trial started with nothing charged, a trial with a setup fee, a declined card, a
 * repeated confirm, the merchant API twin's saved instrument, and renewals on the saved card. Test titles never hold
 * card numbers (the run's output is searched for them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { getCardToken } from '../../../shared/customers/card-tokens.repository.ts';
import { getCheckoutSession } from '../../../shared/checkout/checkout-sessions.repository.ts';
import { confirmPlan as confirmPlanService } from '../../../shared/checkout/checkout-confirms.service.ts';
import { faultPoints } from '../../../shared/payments/fault-points.service.ts';
import { RECONCILE_AFTER_SECONDS, reconcile } from '../../../shared/reconciliation/reconcile.service.ts';
import { getTransaction } from '../../../shared/payments/transactions.repository.ts';
import { getSubscriptionById } from '../../../shared/subscriptions/subscriptions.repository.ts';
import { subscriptionCharges } from '../../../shared/subscriptions/summaries.service.ts';
import { checkoutInvoiceId } from '../../../shared/invoicing/invoices.rules.ts';
import { getMerchant } from '../../../shared/people/index.ts';
import { testCards } from '../../support/cards.ts';
import { call, cardToken, organizationAccount, orgCall, orgPath, orgPlan, orgPromoCode, uniqueEmail } from '../../support/fixtures.ts';
import { getPromoCodeById } from '../../../shared/catalog/promo-codes.repository.ts';
import { eventItemsOf } from '../../support/events.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

/** The sandbox processor's test cards, by what they do. */
const DE = { country: 'DE' };
const C = '/v1/checkout';

const newSession = async (planId: string) => {
  const res = await call('POST', `${C}/plans/${planId}/session`, { body: { email: uniqueEmail('subscriber'), billingAddress: DE } });
  expect(res.status, res.text).toBe(200);
  return res.json as { sessionId: string; email: string };
};
const confirm = (planId: string, body: Record<string, unknown>) => call('POST', `${C}/plans/${planId}/confirm`, { body });
const monthlyPlan = (org: Org, plan: Record<string, unknown> = {}) =>
  orgPlan(org, { pricing: { price: 10, formula: 'fixed-fee' }, ...plan }, { productType: 'recurring' });

const getSub = async (org: Org, id: string) => {
  const res = await orgCall('GET', `${orgPath(org.organizationId)}/subscriptions/${id}`, { fullKey: org.fullKey });
  expect(res.status, res.text).toBe(200);
  return res.json.data;
};
const subscriptionCount = async (org: Org) =>
  (await orgCall('GET', `${orgPath(org.organizationId)}/subscriptions`, { fullKey: org.fullKey })).json.totalCount as number;
const transactionsOf = async (org: Org, query = '') => {
  const res = await orgCall('GET', `${orgPath(org.organizationId)}/transactions?limit=100&sortDirection=asc${query}`, { fullKey: org.fullKey });
  expect(res.status, res.text).toBe(200);
  return res.json.data as Array<{ id: string; status: string; amount: number; subscriptionId: string | null; paymentInstrumentId: string | null }>;
};
const eventsOf = async (org: Org, type: string) =>
  (await eventItemsOf(org.organizationId)).filter((e) => e.type === type).map((e) => e.payload as Record<string, unknown>);
/** Moves the organization's test clock `days` ahead, running what falls due (renewals, trial ends). */
const advanceDays = async (org: Org, days: number) => {
  const clock = (await orgCall('GET', `${orgPath(org.organizationId)}/test-clock`, { fullKey: org.fullKey })).json.data;
  const res = await orgCall('POST', `${orgPath(org.organizationId)}/test-clock/advance`, {
    fullKey: org.fullKey,
    body: { to: new Date(Date.parse(clock.now) + days * 86_400_000).toISOString() },
  });
  expect(res.status, res.text).toBe(200);
};

afterEach(() => {
  delete faultPoints.afterProcessor;
});

describe('recurring plans at checkout', () => {
  it('save the card, start the subscription on it with the payment, and renew it a month later on the saved card', async () => {
    const org = await organizationAccount('Monthly checkout');
    const plan = await monthlyPlan(org);
    const s = await newSession(plan.id);
    const token = await cardToken(org, testCards.succeeds);
    const res = await confirm(plan.id, { sessionId: s.sessionId, token });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ status: 'completed', planId: plan.id, amount: 11.9, tax: 1.9, subscriptionId: expect.any(String) });
    const { subscriptionId, transactionId } = res.json as { subscriptionId: string; transactionId: string };

    const payment = (await getTransaction(org.organizationId, transactionId))!;
    expect(payment).toMatchObject({ status: 'completed', subscriptionId, tokenId: token, paymentInstrumentId: expect.stringMatching(/^inst_/) });
    const sub = await getSub(org, subscriptionId);
    expect(sub).toMatchObject({
      status: 'active',
      isAutoPay: true,
      paymentInstrumentId: payment.paymentInstrumentId,
      price: 10,
      currency: 'USD',
      bilingCycle: { unit: 'months', length: 1 },
      customer: { id: payment.customerId, email: s.email },
      orderId: null,
      items: [{ planId: plan.id, quantity: 1, price: 10 }],
    });
    expect(sub.currentPeriodStart).toBe(sub.startTime);
    expect(sub.nextCharge).toBe(sub.currentPeriodEnd);
    // The card is the customer's saved instrument (its primary one: it had none).
    const customer = (await orgCall('GET', `${orgPath(org.organizationId)}/customers/${payment.customerId}`, { fullKey: org.fullKey })).json.data;
    expect(customer.primaryPaymentInstrument).toEqual({ method: 'payment-card', id: payment.paymentInstrumentId });
    const instruments = await orgCall('GET', `${orgPath(org.organizationId)}/customers/${payment.customerId}/payment-instruments`, { fullKey: org.fullKey });
    expect(instruments.json.data.map((i: { id: string }) => i.id)).toEqual([payment.paymentInstrumentId]);
    expect((await getCardToken(org.organizationId, token))!.consumedAt).not.toBeNull();

    expect(await eventsOf(org, 'subscription.created')).toEqual([
      { subscriptionId, externalMembershipId: null, orderId: null, customerId: payment.customerId },
    ]);
    expect((await eventsOf(org, 'payment.completed')).map((p) => [p.transactionId, p.subscriptionId])).toEqual([[transactionId, subscriptionId]]);

    // The same confirm again replays its answer: one payment, one subscription.
    const again = await confirm(plan.id, { sessionId: s.sessionId, token });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(res.json);
    expect(await subscriptionCount(org)).toBe(1);
    expect(await eventsOf(org, 'subscription.created')).toHaveLength(1);

    // A month and a bit later it has renewed on the saved card, taxed as the checkout was (19 % where the buyer is, DE).
    await advanceDays(org, 32);
    const charges = await transactionsOf(org, `&subscriptionId=${subscriptionId}`);
    expect(charges.map((t) => [t.status, t.amount, t.paymentInstrumentId])).toEqual([
      ['completed', 11.9, payment.paymentInstrumentId],
      ['completed', 11.9, payment.paymentInstrumentId],
    ]);
    const renewed = await getSub(org, subscriptionId);
    expect(renewed.status).toBe('active');
    expect(renewed.currentPeriodStart).toBe(sub.currentPeriodEnd);
    expect(await eventsOf(org, 'subscription.created')).toHaveLength(1);
    const after = (await orgCall('GET', `${orgPath(org.organizationId)}/customers/${payment.customerId}`, { fullKey: org.fullKey })).json.data;
    expect(after.lifetimeRevenue).toBe(23.8);
    // Each charge names its period's invoice, the checkout's first one too (the dashboard links each).
    const organization = (await getMerchant(org.organizationId))!;
    const { charges: listed, invoiceIds } = await subscriptionCharges(organization, subscriptionId, 10);
    expect(listed.find((c) => c.transactionId === transactionId)?.invoiceId).toBe(checkoutInvoiceId(transactionId));
    expect(listed.every((c) => c.invoiceId !== null)).toBe(true);
    expect(invoiceIds).toContain(checkoutInvoiceId(transactionId));
    const invoices = await orgCall('GET', `${orgPath(org.organizationId)}/customer-invoices/${checkoutInvoiceId(transactionId)}`, { fullKey: org.fullKey });
    expect(invoices.status, invoices.text).toBe(200);
  });

  it('start a 14-day trial with nothing due today: no charge, the session paid, the card saved; the trial end charges it', async () => {
    const org = await organizationAccount('Trial checkout');
    const plan = await monthlyPlan(org, { trial: { unit: 'day', length: 14 } });
    const s = await newSession(plan.id);
    const token = await cardToken(org, testCards.succeeds);
    const res = await confirm(plan.id, { sessionId: s.sessionId, token });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      status: 'completed',
      transactionId: null,
      receiptId: null,
      receiptUrl: null,
      orderId: null,
      planId: plan.id,
      currency: 'USD',
      subtotal: 0,
      discount: 0,
      tax: 0,
      amount: 0,
      promoCode: null,
      card: { brand: 'visa', last4: '4242' },
      paidAt: null,
      subscriptionId: expect.any(String),
      // When the trial ends, and its first charge: the price with tax for the billing address (Germany, 19 %).
      trial: { endsAt: expect.any(String), firstCharge: { at: expect.any(String), subtotal: 10, tax: 1.9, amount: 11.9 } },
    });
    const { subscriptionId } = res.json as { subscriptionId: string };
    expect(await transactionsOf(org)).toEqual([]);
    expect(await getCheckoutSession(s.sessionId)).toMatchObject({ status: 'paid', paidAt: expect.any(String), transactionId: null });
    expect((await getCardToken(org.organizationId, token))!.consumedAt).not.toBeNull();
    const sub = await getSub(org, subscriptionId);
    expect(sub).toMatchObject({ status: 'trial', isAutoPay: true, paymentInstrumentId: expect.stringMatching(/^inst_/), currentPeriodStart: null });
    expect(sub.nextCharge).toBe(sub.trialEndTime);
    expect(Date.parse(sub.trialEndTime) - Date.parse(sub.startTime)).toBe(14 * 86_400_000);
    expect([res.json.trial.endsAt, res.json.trial.firstCharge.at]).toEqual([sub.trialEndTime, sub.trialEndTime]);
    expect(await eventsOf(org, 'subscription.created')).toEqual([{ subscriptionId, externalMembershipId: null, orderId: null, customerId: sub.customer.id }]);

    // A repeat replays the answer; another card for the paid session is refused.
    const again = await confirm(plan.id, { sessionId: s.sessionId, token });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(res.json);
    const other = await confirm(plan.id, { sessionId: s.sessionId, token: await cardToken(org, testCards.succeeds) });
    expect(other.status).toBe(409);
    expect(other.json.code).toBe('checkout.session_already_paid');
    expect(await subscriptionCount(org)).toBe(1);

    await advanceDays(org, 15);
    const active = await getSub(org, subscriptionId);
    expect(active.status).toBe('active');
    expect(active.currentPeriodStart).toBe(sub.trialEndTime);
    expect((await transactionsOf(org)).map((t) => [t.status, t.amount, t.subscriptionId, t.paymentInstrumentId])).toEqual([
      // The trial's first charge is what the checkout said it would be: with its tax.
      ['completed', 11.9, subscriptionId, sub.paymentInstrumentId],
    ]);
    expect(await eventsOf(org, 'subscription.created')).toHaveLength(1);
  });

  it('start a plan whose first period a promo code takes to nothing with nothing charged, the code redeemed as a payment redeems it', async () => {
    const org = await organizationAccount('Free first month');
    const plan = await monthlyPlan(org);
    const code = await orgPromoCode(org, { percentOff: 100, maxRedemptions: 1 });
    const s = await newSession(plan.id);
    const res = await confirm(plan.id, { sessionId: s.sessionId, token: await cardToken(org, testCards.succeeds), promoCode: code.code });
    expect(res.status, res.text).toBe(200);
    // What the period cost, all of it discounted, and the code that did it; nothing charged, no trial.
    expect(res.json).toMatchObject({ transactionId: null, subtotal: 10, discount: 10, tax: 0, amount: 0, promoCode: code.code, trial: null });
    expect((await getPromoCodeById(code.id))!.timesRedeemed).toBe(1);
    const sub = await getSub(org, res.json.subscriptionId);
    expect(sub).toMatchObject({ status: 'active' });
    expect(await transactionsOf(org)).toEqual([]);
    // Its one redemption used, the next buyer is refused the code, and nothing of theirs is started.
    const next = await newSession(plan.id);
    const refused = await confirm(plan.id, { sessionId: next.sessionId, token: await cardToken(org, testCards.succeeds), promoCode: code.code });
    expect(refused.status, refused.text).toBe(422);
    expect(refused.json.code).toBe('checkout.promo_code_exhausted');
    expect(await subscriptionCount(org)).toBe(1);
    // An amount off of at least the price does the same.
    const off = await orgPromoCode(org, { amountOff: 1000, currency: 'USD', maxRedemptions: 1 });
    const third = await newSession(plan.id);
    const again = await confirm(plan.id, { sessionId: third.sessionId, token: await cardToken(org, testCards.succeeds), promoCode: off.code });
    expect(again.json).toMatchObject({ subtotal: 10, discount: 10, amount: 0, promoCode: off.code });
    expect((await getPromoCodeById(off.id))!.timesRedeemed).toBe(1);
  });

  it('quote and confirm a promo code on a trial plan as discounting nothing: the first charge after the trial is the price, the code not redeemed', async () => {
    const org = await organizationAccount('Trial promo');
    const plan = await monthlyPlan(org, { trial: { unit: 'day', length: 14 } });
    const code = await orgPromoCode(org, { percentOff: 50 });
    const quoted = await call('POST', `${C}/plans/${plan.id}/promo-codes`, { body: { code: code.code, billingAddress: DE } });
    expect(quoted.status, quoted.text).toBe(200);
    expect(quoted.json).toMatchObject({ discount: 0, subtotal: 10, tax: 1.9, total: 11.9, amountDueToday: 0 });
    const s = await newSession(plan.id);
    const res = await confirm(plan.id, { sessionId: s.sessionId, token: await cardToken(org, testCards.succeeds), promoCode: code.code });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ discount: 0, promoCode: null, trial: { firstCharge: { subtotal: 10, tax: 1.9, amount: 11.9 } } });
    expect((await getPromoCodeById(code.id))!.timesRedeemed).toBe(0);
  });

  it('charge only the setup fee of a trial plan, and keep the subscription in its trial', async () => {
    const org = await organizationAccount('Setup checkout');
    const plan = await monthlyPlan(org, { trial: { unit: 'day', length: 14 }, setup: { price: 5 } });
    const s = await newSession(plan.id);
    const res = await confirm(plan.id, { sessionId: s.sessionId, token: await cardToken(org, testCards.succeeds) });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ amount: 5.95, subtotal: 5, tax: 0.95, transactionId: expect.any(String) });
    const sub = await getSub(org, res.json.subscriptionId);
    expect(sub).toMatchObject({ status: 'trial', currentPeriodStart: null });
    expect(sub.nextCharge).toBe(sub.trialEndTime);
    expect((await transactionsOf(org)).map((t) => [t.amount, t.subscriptionId])).toEqual([[5.95, sub.id]]);
    const receipt = await call('GET', `${C}/plans/${plan.id}/receipts/${res.json.receiptId}`);
    expect(receipt.status).toBe(200);
    expect(receipt.json.lines).toEqual([{ description: `${plan.name} setup`, quantity: 1, unitAmount: 5, amount: 5 }]);
  });

  it('refuse a declined card with 402 and start no subscription; another card pays the same session and starts one', async () => {
    const org = await organizationAccount('Declined checkout');
    const plan = await monthlyPlan(org);
    const s = await newSession(plan.id);
    const declined = await confirm(plan.id, { sessionId: s.sessionId, token: await cardToken(org, testCards.insufficientFunds) });
    expect(declined.status, declined.text).toBe(402);
    expect(declined.json.code).toBe('payment.declined');
    expect(await subscriptionCount(org)).toBe(0);
    expect(await eventsOf(org, 'subscription.created')).toEqual([]);
    const failed = (await getTransaction(org.organizationId, declined.json.details.transactionId))!;
    expect(failed.status).toBe('declined');
    expect(await getSubscriptionById(failed.subscriptionId!)).toBeNull();

    const paid = await confirm(plan.id, { sessionId: s.sessionId, token: await cardToken(org, testCards.succeeds) });
    expect(paid.status, paid.text).toBe(200);
    const sub = await getSub(org, paid.json.subscriptionId);
    expect(sub.status).toBe('active');
    expect(sub.paymentInstrumentId).toBe((await getTransaction(org.organizationId, paid.json.transactionId))!.paymentInstrumentId);
    expect(await subscriptionCount(org)).toBe(1);
    expect(await eventsOf(org, 'subscription.created')).toHaveLength(1);
  });

  it("through the merchant API, make the buyer's saved instrument the subscription's", async () => {
    const org = await organizationAccount('Twin checkout');
    const plan = await monthlyPlan(org);
    const customer = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, {
      fullKey: org.fullKey,
      body: { email: uniqueEmail('saved'), primaryAddress: { customerAddress: { country: 'US', region: 'OR' } } },
    });
    const instrument = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customer.json.data.id}/payment-instruments`, {
      fullKey: org.fullKey,
      body: { token: await cardToken(org, testCards.succeeds) },
    });
    expect(instrument.status, instrument.text).toBe(201);
    const base = `/v1/public-api/merchants/${org.organizationId}/checkout/plans/${plan.id}`;
    const s = await call('POST', `${base}/session`, { key: org.merchantApiKey, body: { email: customer.json.data.email, billingAddress: DE } });
    expect(s.status, s.text).toBe(200);
    const paid = await call('POST', `${base}/confirm`, {
      key: org.merchantApiKey,
      body: { sessionId: s.json.sessionId, paymentInstrumentId: instrument.json.data.id },
    });
    expect(paid.status, paid.text).toBe(200);
    const sub = await getSub(org, paid.json.subscriptionId);
    expect(sub).toMatchObject({ status: 'active', paymentInstrumentId: instrument.json.data.id, customer: { id: customer.json.data.id } });
    const instruments = await orgCall('GET', `${orgPath(org.organizationId)}/customers/${customer.json.data.id}/payment-instruments`, { fullKey: org.fullKey });
    expect(instruments.json.totalCount).toBe(1);
  });

  it('start the subscription exactly once when the reconciler settles a confirm stopped right after the processor answered', async () => {
    const org = await organizationAccount('Reconciled checkout');
    const plan = await monthlyPlan(org);
    const s = await newSession(plan.id);
    const token = await cardToken(org, testCards.succeeds);
    faultPoints.afterProcessor = (op) => {
      if (op === 'charge') throw new Error('stopped after the processor answered');
    };
    await expect(confirmPlanService(plan.id, { sessionId: s.sessionId, token }, { origin: 'http://localhost', pageOrigin: null })).rejects.toThrow(
      'stopped after the processor answered',
    );
    delete faultPoints.afterProcessor;

    // Stranded as a crash leaves it: charged at the processor, the transaction still sending, no subscription yet.
    const [stranded] = await transactionsOf(org);
    expect(stranded).toMatchObject({ status: 'sending', subscriptionId: expect.any(String) });
    expect(await getSubscriptionById(stranded!.subscriptionId!)).toBeNull();

    const later = (n: number) => new Date(Date.now() + (RECONCILE_AFTER_SECONDS + n) * 1000);
    expect(await reconcile(later(1), { organizationId: org.organizationId })).toMatchObject({ charges: { settled: 1, failed: 0, left: 0 } });
    const sub = await getSub(org, stranded!.subscriptionId!);
    expect(sub).toMatchObject({ status: 'active', paymentInstrumentId: stranded!.paymentInstrumentId });
    expect(await eventsOf(org, 'subscription.created')).toHaveLength(1);
    // A second run settles nothing, and the buyer's retry of the confirm replays the settled answer.
    expect(await reconcile(later(2), { organizationId: org.organizationId })).toMatchObject({ charges: { settled: 0, failed: 0, left: 0 } });
    const retried = await confirm(plan.id, { sessionId: s.sessionId, token });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json).toMatchObject({ transactionId: stranded!.id, subscriptionId: sub.id });
    expect(await subscriptionCount(org)).toBe(1);
    expect(await eventsOf(org, 'subscription.created')).toHaveLength(1);
  });
});
