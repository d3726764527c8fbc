/**
 * Paying at checkout through the local gateway: plan sessions, promo-code quotes and their refusals, plan and
 * order confirms (once, under races), declines, the events a merchant receives, receipts by transaction id and by
 * legacy `pay_…` id, and the merchant API's twins. Test titles never hold card numbers (the run's output is
 * searched for them).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { getCardToken } from '../../../shared/customers/card-tokens.repository.ts';
import { getCheckoutSession, putNewCheckoutSession } from '../../../shared/checkout/checkout-sessions.repository.ts';
import { getOrderById } from '../../../shared/checkout/orders.repository.ts';
import { getPromoCodeById, updatePromoCode } from '../../../shared/catalog/promo-codes.repository.ts';
import { getTransaction } from '../../../shared/payments/transactions.repository.ts';
import { LEGACY_RECEIPT_SUNSET } from '../../../shared/checkout/checkout.rules.ts';
import { DomainError } from '../../../shared/domain/errors.ts';
import { checkoutReceipt } from '../../../shared/checkout/checkout-receipts.service.ts';
import { config } from '../../../shared/platform/config.ts';
import { sellerOfRecordFor } from '../../../infra/seller-of-record.ts';
import { nextYear } from '../../support/dates.ts';
import { mailsArrived } from '../../support/mails.ts';
import { utcText } from '../../../shared/domain/time.ts';
import { testCards } from '../../support/cards.ts';
import { call, cardToken, organizationAccount, orgCall, orgPath, orgPlan, orgPromoCode, uniqueEmail } from '../../support/fixtures.ts';
import { bodyOf, eventually, merchantEvents } from '../../support/receiver.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

/** The sandbox processor's test cards, by what they do. */

const C = '/v1/checkout';
const US_CA = { country: 'US', state: 'CA' };
const DE = { country: 'DE' };

const session = (planId: string, body: Record<string, unknown>) => call('POST', `${C}/plans/${planId}/session`, { body });
const quote = (planId: string, body: Record<string, unknown>) => call('POST', `${C}/plans/${planId}/promo-codes`, { body });
const confirmPlan = (planId: string, body: Record<string, unknown>) => call('POST', `${C}/plans/${planId}/confirm`, { body });
const confirmOrder = (orderId: string, body: Record<string, unknown>) => call('POST', `${C}/orders/${orderId}/confirm`, { body });

async function newSession(planId: string, body: Record<string, unknown> = {}) {
  const res = await session(planId, { email: uniqueEmail('buyer'), billingAddress: DE, ...body });
  expect(res.status, res.text).toBe(200);
  return res.json as { sessionId: string; clientToken: string; email: string };
}

const promo = orgPromoCode;

async function order(org: Org, body: Record<string, unknown>, idempotencyKey?: string) {
  return call('POST', `/v1/public-api/merchants/${org.organizationId}/orders`, {
    key: org.merchantApiKey,
    body,
    ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
  });
}

let shop: Org;
beforeAll(async () => {
  shop = await organizationAccount('Checkout Shop');
});

describe('checkout: plan sessions', () => {
  it('starts a session for the buyer with a client token bound to the page origin, confirmable for an hour', async () => {
    const plan = await orgPlan(shop);
    const before = Date.now();
    const res = await call('POST', `${C}/plans/${plan.id}/session`, {
      body: { email: ' Buyer@Example.com ', quantity: 2, billingAddress: { country: 'us', state: 'CA', postalCode: '94103' } },
      headers: { origin: 'https://shop.example' },
    });
    const after = Date.now();
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      sessionId: expect.stringMatching(/^cs_[0-9a-f]{32}$/),
      planId: plan.id,
      status: 'open',
      email: 'buyer@example.com',
      quantity: 2,
      billingAddress: { country: 'US', state: 'CA', postalCode: '94103' },
      currency: 'USD',
      clientToken: expect.stringMatching(/^mor_ct_/),
    });
    // Issued between the request's start and its answer, for exactly an hour (the clock's millisecond aside).
    const expiresAt = Date.parse(res.json.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 60 * 60_000 - 1);
    expect(expiresAt).toBeLessThanOrEqual(after + 60 * 60_000 + 1);
    // The client token works on that page only.
    const card = { primaryAccountNumber: testCards.succeeds, cardVerificationValue: '123', expirationMonth: 12, expirationYear: nextYear };
    const elsewhere = await call('POST', '/v1/hosted-fields/tokens', {
      body: card,
      headers: { authorization: `Bearer ${res.json.clientToken}`, 'x-hosted-fields-origin': 'https://evil.example' },
    });
    expect(elsewhere.status).toBe(403);
    const there = await call('POST', '/v1/hosted-fields/tokens', {
      body: card,
      headers: { authorization: `Bearer ${res.json.clientToken}`, 'x-hosted-fields-origin': 'https://shop.example' },
    });
    expect(there.status, there.text).toBe(201);
  });

  it('refuses a bad e-mail, quantity or country with 400, and an unknown plan with 404', async () => {
    const plan = await orgPlan(shop);
    for (const body of [
      { email: 'not-an-email', billingAddress: DE },
      { email: uniqueEmail(), quantity: 0, billingAddress: DE },
      { email: uniqueEmail(), billingAddress: { country: 'Germany' } },
      { email: uniqueEmail() },
    ]) {
      const res = await session(plan.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await session(`plan_${randomUUID().replace(/-/g, '')}`, { email: uniqueEmail(), billingAddress: DE });
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe('checkout.plan_not_found');
  });
});

describe('checkout: promo-code quotes', () => {
  it('quotes a percent off on the plan line (half-even at the minor unit), then tax on the discounted amount; nothing is redeemed', async () => {
    const plan = await orgPlan(shop, { pricing: { price: 10.05, formula: 'fixed-fee' }, setup: { price: 5 } });
    const p = await promo(shop, { percentOff: 10, planIds: [plan.id] });
    const res = await quote(plan.id, { code: p.code.toLowerCase(), quantity: 1, billingAddress: DE });
    expect(res.status, res.text).toBe(200);
    // 10 % of 10.05 is 1.005: half-even at the cent gives 1.00. German VAT 19 % of 9.05 = 1.7195 → 1.72; of 5 → 0.95.
    expect(res.json).toEqual({
      promoCode: { code: p.code, percentOff: 10, amountOff: null },
      currency: 'USD',
      lines: [
        { type: 'plan', description: plan.name, quantity: 1, unitAmount: 10.05, amount: 10.05, discount: 1, tax: 1.72, dueToday: true },
        { type: 'setup', description: `${plan.name} setup`, quantity: 1, unitAmount: 5, amount: 5, discount: 0, tax: 0.95, dueToday: true },
      ],
      subtotal: 15.05,
      discount: 1,
      tax: 2.67,
      total: 16.72,
      subtotalDueToday: 14.05,
      taxDueToday: 2.67,
      amountDueToday: 16.72,
    });
    expect((await getPromoCodeById(p.id))!.timesRedeemed).toBe(0);

    const untaxed = await quote(plan.id, { code: p.code });
    expect(untaxed.status).toBe(200);
    expect(untaxed.json).toMatchObject({ tax: null, total: null, taxDueToday: null, amountDueToday: null, discount: 1, subtotalDueToday: 14.05 });
  });

  it('caps an amount off at the plan line, in a zero-decimal currency (a recurring plan: its first period may come to nothing)', async () => {
    const plan = await orgPlan(shop, { currency: 'JPY', pricing: { price: 500, formula: 'fixed-fee' } }, { productType: 'recurring' });
    const p = await promo(shop, { amountOff: 800, currency: 'JPY' });
    const res = await quote(plan.id, { code: p.code, quantity: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ promoCode: { amountOff: 800, percentOff: null }, subtotal: 500, discount: 500, subtotalDueToday: 0 });
  });

  it('refuses each unusable code with its own 422 code', async () => {
    const plan = await orgPlan(shop);
    const other = await orgPlan(shop);
    const inactive = await promo(shop, { percentOff: 10 });
    expect(
      (await orgCall('PATCH', `${orgPath(shop.organizationId)}/promo-codes/${inactive.id}`, { fullKey: shop.fullKey, body: { isActive: false } })).status,
    ).toBe(200);
    const expired = await promo(shop, { percentOff: 10 });
    await updatePromoCode(shop.organizationId, expired.id, { expiresAt: new Date(Date.now() - 60_000).toISOString() }, new Date().toISOString());
    const exhausted = await promo(shop, { percentOff: 10, maxRedemptions: 1 });
    const s = await newSession(plan.id);
    expect((await confirmPlan(plan.id, { sessionId: s.sessionId, token: await cardToken(shop), promoCode: exhausted.code })).status).toBe(200);
    const wrongPlan = await promo(shop, { percentOff: 10, planIds: [other.id] });
    const wrongCurrency = await promo(shop, { amountOff: 1, currency: 'EUR' });
    // All of a plan sold once: a price the buyer could not pay (a recurring plan's first period may be taken to nothing).
    const everything = await promo(shop, { percentOff: 100 });
    // An amount off the whole price (10 USD) is refused at quantity 1 alike; at 2 it leaves something to pay.
    const wholePrice = await promo(shop, { amountOff: 10, currency: 'USD' });
    expect((await quote(plan.id, { code: wholePrice.code, quantity: 2 })).json).toMatchObject({ discount: 10, subtotalDueToday: 10 });
    const recurring = await orgPlan(shop, {}, { productType: 'recurring' });
    expect((await quote(recurring.id, { code: everything.code })).status).toBe(200);
    const cases: Array<[string, string]> = [
      [everything.code, 'checkout.nothing_due_today'],
      [wholePrice.code, 'checkout.nothing_due_today'],
      ['NO-SUCH-CODE', 'checkout.promo_code_not_found'],
      [inactive.code, 'checkout.promo_code_inactive'],
      [expired.code, 'checkout.promo_code_expired'],
      [exhausted.code, 'checkout.promo_code_exhausted'],
      [wrongPlan.code, 'checkout.promo_code_wrong_plan'],
      [wrongCurrency.code, 'checkout.promo_code_wrong_currency'],
    ];
    for (const [code, errorCode] of cases) {
      const res = await quote(plan.id, { code });
      expect(res.status, code).toBe(422);
      expect(res.json).toMatchObject({ statusCode: 422, code: errorCode, message: expect.any(String) });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
    // Another merchant's code is not this plan's merchant's.
    const elsewhere = await organizationAccount('Other shop');
    const foreign = await promo(elsewhere, { percentOff: 50 });
    expect((await quote(plan.id, { code: foreign.code })).json.code).toBe('checkout.promo_code_not_found');
  });
});

describe('checkout: paying a plan', () => {
  it('previews tax, applies a promo code and pays: one charge, the code redeemed, the customer made, payment.completed with orderId null', async () => {
    const org = await organizationAccount('Plan shop');
    const events = await merchantEvents(org.organizationId, ['payment.completed', 'customer.created']);
    const plan = await orgPlan(org, { pricing: { price: 40, formula: 'fixed-fee' } });
    const p = await promo(org, { percentOff: 25, planIds: [plan.id], maxRedemptions: 5 });

    const tax = await call('POST', `${C}/plans/${plan.id}/tax`, { body: { billingAddress: US_CA } });
    expect(tax.status, tax.text).toBe(200);
    expect(tax.json).toMatchObject({ amountDueToday: 42.9, promoCodeApplied: false }); // California 7.25 %
    const q = await quote(plan.id, { code: p.code, billingAddress: US_CA });
    // 7.25 % of 30.00 = 2.175: half-even at the cent gives 2.18.
    expect(q.json).toMatchObject({ discount: 10, subtotalDueToday: 30, taxDueToday: 2.18, amountDueToday: 32.18 });

    const s = await newSession(plan.id, { billingAddress: US_CA });
    const token = await cardToken(org);
    const res = await confirmPlan(plan.id, { sessionId: s.sessionId, token, promoCode: p.code });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      status: 'completed',
      transactionId: expect.any(String),
      receiptId: res.json.transactionId,
      receiptUrl: expect.stringMatching(new RegExp(`/api/v1/checkout/plans/${plan.id}/receipts/${res.json.transactionId}$`)),
      orderId: null,
      planId: plan.id,
      currency: 'USD',
      subtotal: 40,
      discount: 10,
      tax: 2.18,
      amount: 32.18,
      promoCode: p.code,
      card: { brand: 'visa', last4: '4242' },
      paidAt: expect.any(String),
      subscriptionId: null,
      trial: null,
    });
    const t = (await getTransaction(org.organizationId, res.json.transactionId))!;
    expect(t).toMatchObject({ status: 'completed', amountMinor: 3218, planId: plan.id, orderId: null, customerEmail: s.email });
    expect((await getPromoCodeById(p.id))!.timesRedeemed).toBe(1);
    expect(await getCheckoutSession(s.sessionId)).toMatchObject({ status: 'paid', transactionId: t.id });

    // The same confirm again replays its answer; the session cannot be paid twice.
    const again = await confirmPlan(plan.id, { sessionId: s.sessionId, token, promoCode: p.code });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(res.json);
    // With other details (no promo code), the same card's confirm is refused in words a buyer's confirm has.
    const changed = await confirmPlan(plan.id, { sessionId: s.sessionId, token });
    expect(changed.status).toBe(422);
    expect(changed.json).toMatchObject({ code: 'idempotency.key_reused', message: expect.stringContaining('already confirmed with this card') });
    expect(changed.json.message).not.toContain('idempotencyKey');
    const twice = await confirmPlan(plan.id, { sessionId: s.sessionId, token: await cardToken(org) });
    expect(twice.status).toBe(409);
    expect(twice.json.code).toBe('checkout.session_already_paid');
    expect((await getPromoCodeById(p.id))!.timesRedeemed).toBe(1);

    const got = await eventually(() => (events.received.length >= 2 ? events.received : undefined), 25_000, 'both deliveries');
    const bodies = got.map(bodyOf);
    expect(bodies).toContainEqual({
      transactionId: t.id,
      externalTransactionId: t.externalTransactionId,
      amount: 32.18,
      currency: 'usd',
      occurredAt: t.processedAt,
      orderId: null,
      customerId: t.customerId,
      subscriptionId: null,
      merchantId: org.organizationId,
    });
    expect(bodies).toContainEqual({ customerId: t.customerId, email: s.email, merchantId: org.organizationId });

    // A second purchase by the same buyer is the same customer, and makes no second customer.created.
    const s2 = await newSession(plan.id, { email: s.email, billingAddress: US_CA });
    const second = await confirmPlan(plan.id, { sessionId: s2.sessionId, token: await cardToken(org) });
    expect(second.status, second.text).toBe(200);
    expect((await getTransaction(org.organizationId, second.json.transactionId))!.customerId).toBe(t.customerId);
  });

  it('answers a decline with 402 and its reason, gives the promo redemption back, and lets the buyer pay with another card', async () => {
    const org = await organizationAccount('Decline shop');
    const events = await merchantEvents(org.organizationId, ['payment.failed']);
    const plan = await orgPlan(org);
    const p = await promo(org, { percentOff: 10, maxRedemptions: 1 });
    const s = await newSession(plan.id);
    const declined = await confirmPlan(plan.id, { sessionId: s.sessionId, token: await cardToken(org, testCards.insufficientFunds), promoCode: p.code });
    expect(declined.status, declined.text).toBe(402);
    expect(declined.json).toMatchObject({
      code: 'payment.declined',
      message: expect.stringMatching(/^The payment was declined: .+/),
      details: { declineCode: 'insufficient_funds' },
    });
    expect((await getPromoCodeById(p.id))!.timesRedeemed).toBe(0);
    expect(await getCheckoutSession(s.sessionId)).toMatchObject({ status: 'open' });
    const failed = bodyOf(await eventually(() => events.received[0], 25_000, 'payment.failed'));
    expect(failed).toMatchObject({ transactionId: declined.json.details.transactionId, orderId: null, merchantId: org.organizationId });

    const paid = await confirmPlan(plan.id, { sessionId: s.sessionId, token: await cardToken(org), promoCode: p.code });
    expect(paid.status, paid.text).toBe(200);
    expect((await getPromoCodeById(p.id))!.timesRedeemed).toBe(1);
  });

  it('redeems a promo code with maxRedemptions 2 at most twice when six buyers confirm at once', async () => {
    const org = await organizationAccount('Race shop');
    const plan = await orgPlan(org);
    const p = await promo(org, { percentOff: 50, maxRedemptions: 2 });
    const buyers = await Promise.all(Array.from({ length: 6 }, async () => ({ s: await newSession(plan.id), token: await cardToken(org) })));
    const results = await Promise.all(buyers.map(({ s, token }) => confirmPlan(plan.id, { sessionId: s.sessionId, token, promoCode: p.code })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 422, 422, 422, 422]);
    for (const r of results.filter((x) => x.status === 422)) expect(r.json.code).toBe('checkout.promo_code_exhausted');
    expect((await getPromoCodeById(p.id))!.timesRedeemed).toBe(2);
    // The refused buyers' tokens were not used: they can still pay without the code.
    const refused = buyers.filter((_, i) => results[i]!.status === 422);
    expect((await getCardToken(org.organizationId, refused[0]!.token))!.consumedAt).toBeNull();
  });

  it('refuses a billing address it cannot tax with 422 checkout.tax_unavailable, charging nothing', async () => {
    const plan = await orgPlan(shop);
    const s = await newSession(plan.id, { billingAddress: { country: 'US' } });
    const token = await cardToken(shop);
    const res = await confirmPlan(plan.id, { sessionId: s.sessionId, token });
    expect(res.status, res.text).toBe(422);
    expect(res.json.code).toBe('checkout.tax_unavailable');
    expect((await getCardToken(shop.organizationId, token))!.consumedAt).toBeNull();
    // With the state it pays.
    const ok = await confirmPlan(plan.id, { sessionId: s.sessionId, token, billingAddress: US_CA });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.tax).toBe(0.72); // 7.25 % of 10.00 = 0.725: half-even at the cent
  });

  it('refuses a session whose plan was repriced after it began (409 checkout.price_changed), charging nothing; a new session pays the new price', async () => {
    const plan = await orgPlan(shop);
    const s = await newSession(plan.id, { billingAddress: US_CA });
    const repriced = await orgCall('PATCH', `${orgPath(shop.organizationId)}/plans/${plan.id}`, {
      fullKey: shop.fullKey,
      body: { pricing: { price: 100, formula: 'fixed-fee' } },
    });
    expect(repriced.status, repriced.text).toBe(200);
    const token = await cardToken(shop);
    const refused = await confirmPlan(plan.id, { sessionId: s.sessionId, token });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.json.code).toBe('checkout.price_changed');
    expect((await getCardToken(shop.organizationId, token))!.consumedAt).toBeNull();
    const again = await newSession(plan.id, { billingAddress: US_CA });
    const paid = await confirmPlan(plan.id, { sessionId: again.sessionId, token });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json).toMatchObject({ subtotal: 100, tax: 7.25, amount: 107.25 });

    // A subscription's cycle changed after its session began: also refused (the page said "every month").
    const monthly = await orgPlan(shop, {}, { productType: 'recurring' });
    const shown = await newSession(monthly.id, { billingAddress: US_CA });
    const daily = await orgCall('PATCH', `${orgPath(shop.organizationId)}/plans/${monthly.id}`, {
      fullKey: shop.fullKey,
      body: { recurringInterval: { unit: 'day', length: 1 } },
    });
    expect(daily.status, daily.text).toBe(200);
    const cycle = await confirmPlan(monthly.id, { sessionId: shown.sessionId, token: await cardToken(shop) });
    expect(cycle.status, cycle.text).toBe(409);
    expect(cycle.json.code).toBe('checkout.price_changed');
  });

  it("refuses an expired session (422) and another plan's session (404)", async () => {
    const plan = await orgPlan(shop);
    const other = await orgPlan(shop);
    const s = await newSession(plan.id);
    expect((await confirmPlan(other.id, { sessionId: s.sessionId, token: await cardToken(shop) })).json.code).toBe('checkout.session_not_found');
    const old = new Date(Date.now() - 2 * 3600_000).toISOString();
    const expiredId = `cs_${randomUUID().replace(/-/g, '')}`;
    await putNewCheckoutSession({
      id: expiredId,
      merchantId: shop.organizationId,
      planId: plan.id,
      status: 'open',
      email: uniqueEmail(),
      quantity: 1,
      billingAddress: { country: 'DE', state: null, postalCode: null },
      currency: 'USD',
      expiresAt: old,
      createdAt: old,
      paidAt: null,
      transactionId: null,
    });
    const expired = await confirmPlan(plan.id, { sessionId: expiredId, token: await cardToken(shop) });
    expect(expired.status).toBe(422);
    expect(expired.json.code).toBe('checkout.session_expired');
  });
});

describe('checkout: paying an order', () => {
  it('makes an order with an Idempotency-Key, replays it for another body, and pays it once while a concurrent confirm is refused', async () => {
    const org = await organizationAccount('Order shop');
    const events = await merchantEvents(org.organizationId, ['payment.completed']);
    const plan = await orgPlan(org, { pricing: { price: 12.5, formula: 'fixed-fee' } });
    const key = `order-${randomUUID()}`;
    const made = await order(
      org,
      {
        currency: 'USD',
        lines: [
          { planId: plan.id, quantity: 2 },
          { description: 'Gift wrap', unitAmount: 3, quantity: 1 },
        ],
      },
      key,
    );
    expect(made.status, made.text).toBe(201);
    const replay = await order(org, { currency: 'EUR', lines: [{ description: 'Something else', unitAmount: 99, quantity: 1 }] }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json).toEqual(made.json);
    const orderId = made.json.id as string;

    const read = await call('GET', `${C}/orders/${orderId}`);
    expect(read.status).toBe(200);
    expect(read.json.clientToken).toMatch(/^mor_ct_/);

    const [t1, t2] = await Promise.all([cardToken(org), cardToken(org)]);
    const email = uniqueEmail('orderbuyer');
    const both = await Promise.all([t1, t2].map((token) => confirmOrder(orderId, { email, token, billingAddress: DE })));
    const ok = both.filter((r) => r.status === 200);
    const refused = both.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(refused[0]!.status).toBe(409);
    expect(['checkout.payment_in_progress', 'checkout.order_already_paid']).toContain(refused[0]!.json.code);
    // 28 + 19 % VAT per line: 25 → 4.75, 3 → 0.57.
    expect(ok[0]!.json).toMatchObject({ orderId, planId: null, subtotal: 28, discount: 0, tax: 5.32, amount: 33.32, promoCode: null });

    const again = await confirmOrder(orderId, { email, token: await cardToken(org), billingAddress: DE });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('checkout.order_already_paid');
    const paid = await getOrderById(orderId);
    expect(paid).toMatchObject({ status: 'paid', transactionId: ok[0]!.json.transactionId });
    const merchantRead = await call('GET', `/v1/public-api/merchants/${org.organizationId}/orders/${orderId}`, { key: org.merchantApiKey });
    expect(merchantRead.json).toMatchObject({ status: 'paid', paidAt: paid!.paidAt, transactionId: paid!.transactionId });
    const buyerRead = await call('GET', `${C}/orders/${orderId}`);
    expect(buyerRead.json).toMatchObject({ clientToken: null, order: { status: 'paid', paidAt: paid!.paidAt } });

    const delivered = bodyOf(await eventually(() => events.received[0], 25_000, 'payment.completed'));
    expect(delivered).toMatchObject({ transactionId: ok[0]!.json.transactionId, orderId, amount: 33.32, currency: 'usd', merchantId: org.organizationId });
    expect(events.received).toHaveLength(1);
  });

  it('refuses a promo code on an order confirm with 400 and charges nothing', async () => {
    const made = await order(shop, { currency: 'USD', lines: [{ description: 'Thing', unitAmount: 5, quantity: 1 }] });
    const token = await cardToken(shop);
    const res = await confirmOrder(made.json.id, { email: uniqueEmail(), token, billingAddress: DE, promoCode: 'SAVE10' });
    expect(res.status).toBe(400);
    expect((await getCardToken(shop.organizationId, token))!.consumedAt).toBeNull();
    expect((await getOrderById(made.json.id))!.status).toBe('open');
  });

  it('leaves the order open after a decline, for another card', async () => {
    const made = await order(shop, { currency: 'EUR', lines: [{ description: 'Thing', unitAmount: 5, quantity: 1 }] });
    const email = uniqueEmail();
    const declined = await confirmOrder(made.json.id, { email, token: await cardToken(shop, testCards.insufficientFunds), billingAddress: DE });
    expect(declined.status).toBe(402);
    expect((await getOrderById(made.json.id))!.status).toBe('open');
    const paid = await confirmOrder(made.json.id, { email, token: await cardToken(shop), billingAddress: DE });
    expect(paid.status, paid.text).toBe(200);
  });
});

describe('checkout: receipts', () => {
  it('resolves a receipt by transaction id, and by the legacy pay_ id with Deprecation, Sunset and a Link to the preferred URL', async () => {
    const plan = await orgPlan(shop, { pricing: { price: 20, formula: 'fixed-fee' } });
    const s = await newSession(plan.id);
    const paid = await confirmPlan(plan.id, { sessionId: s.sessionId, token: await cardToken(shop) });
    expect(paid.status).toBe(200);
    const receiptUrl = `${C}/plans/${plan.id}/receipts/${paid.json.receiptId}`;
    const res = await call('GET', receiptUrl);
    expect(res.status, res.text).toBe(200);
    const t = (await getTransaction(shop.organizationId, paid.json.transactionId))!;
    expect(res.json).toEqual({
      receiptId: t.id,
      receiptNumber: expect.stringMatching(/^R-\d{6}$/),
      transactionId: t.id,
      externalTransactionId: t.externalTransactionId,
      merchantId: shop.organizationId,
      merchantName: 'Checkout Shop',
      sellerOfRecord: sellerOfRecordFor(config.stage),
      orderId: null,
      planId: plan.id,
      status: 'completed',
      refundedAmount: 0,
      currency: 'USD',
      currencySign: '$',
      lines: [{ description: plan.name, quantity: 1, unitAmount: 20, amount: 20 }],
      subtotal: 20,
      discount: 0,
      tax: 3.8,
      taxRate: '0.19',
      amount: 23.8,
      promoCode: null,
      billingCountry: 'DE',
      card: { brand: 'visa', last4: '4242' },
      paidAt: t.processedAt,
    });
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.text).not.toContain(s.email);

    // The buyer is mailed the receipt, once the payment is settled: what it shows, and who sold.
    const mailed = await mailsArrived(s.email, 'receipt');
    expect(mailed.map((m) => m.subject)).toEqual([`Your receipt ${res.json.receiptNumber} from Checkout Shop`]);
    const sor = sellerOfRecordFor(config.stage);
    expect(mailed[0]!.text).toBe(
      [
        `Receipt ${res.json.receiptNumber} from Checkout Shop`,
        `Paid ${utcText(t.processedAt!)} with visa ending in 4242.`,
        '',
        `${plan.name} × 1: 20.00 USD`,
        'Subtotal: 20.00 USD',
        'Tax (19%): 3.80 USD',
        'Total paid: 23.80 USD',
        '',
        `Sold by ${sor.name}, ${sor.address}, ${sor.city}, ${sor.country} (VAT ${sor.taxNumber.value}), as merchant of record on behalf of Checkout Shop: the charge on your statement is theirs.`,
      ].join('\n'),
    );

    expect(t.externalTransactionId).toMatch(/^pay_/);
    const legacy = await call('GET', `${C}/plans/${plan.id}/receipts/${t.externalTransactionId}`);
    expect(legacy.status, legacy.text).toBe(200);
    expect(legacy.json).toEqual(res.json);
    expect(legacy.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(legacy.headers.get('sunset')).toBe('Fri, 15 Jan 2027 00:00:00 GMT');
    expect(legacy.headers.get('link')).toMatch(new RegExp(`^<http://[^>]+/api${receiptUrl}>; rel="successor-version"$`));
  });

  it('refuses legacy ids with 410 from 2027-01-15 on, and still answers them the instant before', async () => {
    const plan = await orgPlan(shop);
    const s = await newSession(plan.id);
    const paid = await confirmPlan(plan.id, { sessionId: s.sessionId, token: await cardToken(shop) });
    const t = (await getTransaction(shop.organizationId, paid.json.transactionId))!;
    const ctx = { origin: 'https://pay.example', pageOrigin: null };
    const before = await checkoutReceipt({ planId: plan.id }, t.externalTransactionId!, ctx, new Date(LEGACY_RECEIPT_SUNSET.getTime() - 1));
    expect(before.body.transactionId).toBe(t.id);
    expect(before.headers.link).toBe(`<https://pay.example/api/v1/checkout/plans/${plan.id}/receipts/${t.id}>; rel="successor-version"`);
    const after = await checkoutReceipt({ planId: plan.id }, t.externalTransactionId!, ctx, LEGACY_RECEIPT_SUNSET).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(DomainError);
    expect(after).toMatchObject({ status: 410, code: 'checkout.receipt_id_retired' });
    // The UUID keeps working after the switch.
    expect((await checkoutReceipt({ planId: plan.id }, t.id, ctx, new Date('2027-06-01T00:00:00Z'))).body.transactionId).toBe(t.id);
  });

  it('answers 404 for a receipt of another plan or order, a declined payment, and an unknown id', async () => {
    const plan = await orgPlan(shop);
    const other = await orgPlan(shop);
    const s = await newSession(plan.id);
    const paid = await confirmPlan(plan.id, { sessionId: s.sessionId, token: await cardToken(shop) });
    const made = await order(shop, { currency: 'USD', lines: [{ description: 'Thing', unitAmount: 5, quantity: 1 }] });
    const s2 = await newSession(plan.id);
    const declined = await confirmPlan(plan.id, { sessionId: s2.sessionId, token: await cardToken(shop, testCards.insufficientFunds) });
    for (const path of [
      `${C}/plans/${other.id}/receipts/${paid.json.receiptId}`,
      `${C}/orders/${made.json.id}/receipts/${paid.json.receiptId}`,
      `${C}/plans/${plan.id}/receipts/${declined.json.details.transactionId}`,
      `${C}/plans/${plan.id}/receipts/${randomUUID()}`,
      `${C}/plans/${plan.id}/receipts/pay_unknown000000000000000000`,
    ]) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.json.code).toBe('checkout.receipt_not_found');
    }
  });
});

describe('merchant API checkout twins', () => {
  it('starts a session, quotes a promo code, pays with a saved instrument and reads the receipt under the merchant key', async () => {
    const org = await organizationAccount('Twin shop');
    const plan = await orgPlan(org, { pricing: { price: 30, formula: 'fixed-fee' } });
    const p = await promo(org, { amountOff: 5, currency: 'USD' });
    const base = `/v1/public-api/merchants/${org.organizationId}/checkout/plans/${plan.id}`;
    const customer = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, { fullKey: org.fullKey, body: { email: uniqueEmail('saved') } });
    const instrument = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customer.json.data.id}/payment-instruments`, {
      fullKey: org.fullKey,
      body: { token: await cardToken(org) },
    });
    expect(instrument.status, instrument.text).toBe(201);

    const s = await call('POST', `${base}/session`, { key: org.merchantApiKey, body: { email: customer.json.data.email, billingAddress: DE } });
    expect(s.status, s.text).toBe(200);
    const q = await call('POST', `${base}/promo-codes`, { key: org.merchantApiKey, body: { code: p.code, billingAddress: DE } });
    expect(q.status).toBe(200);
    expect(q.json).toMatchObject({ discount: 5, amountDueToday: 29.75 });
    const paid = await call('POST', `${base}/confirm`, {
      key: org.merchantApiKey,
      body: { sessionId: s.json.sessionId, paymentInstrumentId: instrument.json.data.id, promoCode: p.code },
    });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json).toMatchObject({ amount: 29.75, discount: 5, receiptUrl: expect.stringContaining(`/api${base}/receipts/`) });
    expect((await getTransaction(org.organizationId, paid.json.transactionId))!.customerId).toBe(customer.json.data.id);
    const receipt = await call('GET', `${base}/receipts/${paid.json.receiptId}`, { key: org.merchantApiKey });
    expect(receipt.status).toBe(200);
    expect(receipt.json.amount).toBe(29.75);

    // Both a token and an instrument, or neither: 400. Another merchant's key: 403.
    const both = await call('POST', `${base}/confirm`, { key: org.merchantApiKey, body: { sessionId: s.json.sessionId } });
    expect(both.status).toBe(400);
    const stranger = await organizationAccount('Stranger');
    const foreign = await call('POST', `${base}/session`, { key: stranger.merchantApiKey, body: { email: uniqueEmail(), billingAddress: DE } });
    expect(foreign.status).toBe(403);
    // A public confirm cannot charge a saved instrument.
    const publicTry = await confirmPlan(plan.id, { sessionId: s.json.sessionId, paymentInstrumentId: instrument.json.data.id });
    expect(publicTry.status).toBe(400);
  });
});
