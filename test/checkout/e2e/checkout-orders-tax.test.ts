import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, organizationAccount, orgPlan, orgProduct } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const ORIGIN = { origin: 'https://shop.example' };
const readOrder = (orderId: string) => call('GET', `/v1/checkout/orders/${orderId}`, { headers: ORIGIN });
const orderTax = (orderId: string, body: unknown) => call('POST', `/v1/checkout/orders/${orderId}/tax`, { body, headers: ORIGIN });
const planTax = (planId: string, body: unknown) => call('POST', `/v1/checkout/plans/${planId}/tax`, { body, headers: ORIGIN });
const createOrder = async (org: Org, body: Record<string, unknown>) => {
  const res = await call('POST', `/v1/public-api/merchants/${org.organizationId}/orders`, { key: org.merchantApiKey, body });
  if (res.status !== 201) throw new Error(`order creation failed: ${res.status} ${res.text}`);
  return res.json as { id: string };
};
const line = (description: string, unitAmount: number, quantity: number) => ({ description, unitAmount, quantity });
const unknownOrderId = () => `ord_${randomUUID().replace(/-/g, '')}`;
const unknownPlanId = () => `plan_${randomUUID().replace(/-/g, '')}`;

/** Words that would mean customer data or a processor purchase URL reached a public checkout answer. */
const forbidden = /email|customer|purchaseUrl|checkoutUrl|redirectUrl|ownerUserId|apiKey|secret/i;

const expectCors = (res: { headers: Headers }) => {
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-allow-credentials')).toBeNull();
};

let a: Org;
beforeAll(async () => {
  a = await organizationAccount('Shop Orders');
});

describe('checkout: order read', () => {
  it('shows the itemised order with totals in major units and the mount fields, without the buyer e-mail', async () => {
    const plan = await orgPlan(a, { name: 'Gold', pricing: { price: 19.99, formula: 'fixed-fee' } });
    const order = await createOrder(a, {
      currency: 'USD',
      lines: [{ planId: plan.id, quantity: 2 }, line('Gift wrap', 0.1, 3)],
      customerEmail: 'buyer@example.com',
    });
    const res = await readOrder(order.id);
    expect(res.status, res.text).toBe(200);
    expectCors(res);
    expect(res.json).toEqual({
      merchantId: a.organizationId,
      merchantName: 'Shop Orders',
      mode: 'test',
      hostedFields: { sdkUrl: expect.stringMatching(/\/api\/v1\/hosted-fields\/sdk\.js$/), mountFunction: 'MorHostedFields.mount' },
      paymentMethods: ['payment-card'],
      cardBrands: expect.arrayContaining(['visa']),
      customization: { displayName: null, brandColor: null, accentColor: null, logoUrl: null },
      // A client token to mount the hosted fields with, while the order is open.
      clientToken: expect.stringMatching(/^mor_ct_[0-9a-f]{64}$/),
      clientTokenExpiresAt: expect.any(String),
      order: {
        id: order.id,
        status: 'open',
        currency: 'USD',
        currencySign: '$',
        lines: [
          { type: 'plan', planId: plan.id, description: 'Gold', quantity: 2, unitAmount: 19.99, amount: 39.98 },
          { type: 'custom', planId: null, description: 'Gift wrap', quantity: 3, unitAmount: 0.1, amount: 0.3 },
        ],
        subtotal: 40.28,
        // Taxed at payment by the billing address: no tax in the total yet.
        tax: null,
        total: 40.28,
        createdAt: expect.any(String),
        paidAt: null,
      },
      termsUrl: null,
      privacyUrl: null,
      returnPolicyUrl: null,
      eulaUrl: null,
      policyDocuments: [],
    });
    expect(res.text).not.toMatch(forbidden);
    expect(res.text).not.toContain('buyer@example.com');
  });

  it('answers 404 checkout.order_not_found for an unknown and a malformed order id, with CORS', async () => {
    for (const id of [unknownOrderId(), 'not-an-order', `${unknownOrderId()}0`]) {
      const res = await readOrder(id);
      expect(res.status, id).toBe(404);
      expect(res.json).toMatchObject({ statusCode: 404, code: 'checkout.order_not_found' });
      expectCors(res);
    }
  });
});

describe('checkout: plan tax preview', () => {
  it('taxes price × quantity plus the setup price for a US state, all due today, and says no promo code is included', async () => {
    const plan = await orgPlan(
      a,
      {
        name: 'Pro',
        currency: 'USD',
        pricing: { price: 19.99, formula: 'fixed-fee' },
        setup: { price: 5 },
      },
      { productType: 'recurring' },
    );
    const res = await planTax(plan.id, { billingAddress: { country: 'us', state: 'ca', postalCode: '94105' }, quantity: 2 });
    expect(res.status, res.text).toBe(200);
    expectCors(res);
    // CA 7.25 %: 39.98 → 2.89855 → 2.90; 5.00 → 0.3625 → 0.36 (per line, to the cent).
    expect(res.json).toEqual({
      currency: 'USD',
      jurisdiction: { country: 'US', state: 'CA' },
      rate: '0.0725',
      rates: expect.arrayContaining([expect.objectContaining({ level: 'state', rate: '0.0725' })]),
      reason: null,
      lines: [
        { type: 'plan', description: 'Pro', quantity: 2, unitAmount: 19.99, amount: 39.98, tax: 2.9, dueToday: true },
        { type: 'setup', description: 'Pro setup', quantity: 1, unitAmount: 5, amount: 5, tax: 0.36, dueToday: true },
      ],
      subtotal: 44.98,
      tax: 3.26,
      total: 48.24,
      subtotalDueToday: 44.98,
      taxDueToday: 3.26,
      amountDueToday: 48.24,
      promoCodeApplied: false,
      note: expect.stringMatching(/promo code/i),
    });
  });

  it('defaults the quantity to 1 and rounds JPY tax to whole yen for an EU country', async () => {
    const plan = await orgPlan(a, { name: 'Yen', currency: 'JPY', pricing: { price: 999, formula: 'fixed-fee' } });
    const res = await planTax(plan.id, { billingAddress: { country: 'DE' } });
    expect(res.status, res.text).toBe(200);
    // DE 19 %: ¥999 → 189.81 → ¥190.
    expect(res.json).toMatchObject({
      currency: 'JPY',
      jurisdiction: { country: 'DE', state: null },
      rate: '0.19',
      rates: [{ level: 'country', type: 'vat', rate: '0.19', validFrom: expect.any(String) }],
      lines: [{ type: 'plan', quantity: 1, unitAmount: 999, amount: 999, tax: 190, dueToday: true }],
      subtotal: 999,
      tax: 190,
      total: 1189,
      amountDueToday: 1189,
      promoCodeApplied: false,
    });
  });

  it('owes 0 today for a trial without a setup price, and only the taxed setup price for a trial with one', async () => {
    const product = await orgProduct(a, { type: 'recurring' });
    const trial = { unit: 'day', length: 14 };
    const interval = { unit: 'month', length: 1 };
    const [bare, withSetup] = await Promise.all([
      orgPlan(a, { currency: 'EUR', pricing: { price: 9.99, formula: 'fixed-fee' }, recurringInterval: interval, trial }, { productId: product.id }),
      orgPlan(
        a,
        { currency: 'EUR', pricing: { price: 9.99, formula: 'fixed-fee' }, recurringInterval: interval, trial, setup: { price: 3 } },
        { productId: product.id },
      ),
    ]);
    const address = { billingAddress: { country: 'FR' } };
    const [r1, r2] = await Promise.all([planTax(bare.id, address), planTax(withSetup.id, address)]);
    expect(r1.status, r1.text).toBe(200);
    // FR 20 %: €9.99 → 1.998 → €2.00 after the trial.
    expect(r1.json).toMatchObject({
      lines: [{ type: 'plan', amount: 9.99, tax: 2, dueToday: false }],
      subtotal: 9.99,
      tax: 2,
      total: 11.99,
      subtotalDueToday: 0,
      taxDueToday: 0,
      amountDueToday: 0,
    });
    expect(r2.status, r2.text).toBe(200);
    expect(r2.json).toMatchObject({
      lines: [
        { type: 'plan', dueToday: false },
        { type: 'setup', amount: 3, tax: 0.6, dueToday: true },
      ],
      subtotalDueToday: 3,
      taxDueToday: 0.6,
      amountDueToday: 3.6,
    });
  });

  it('answers 422 checkout.tax_unavailable when no rate is known for the address, with CORS', async () => {
    const plan = await orgPlan(a);
    const cases = [
      [{ country: 'US', state: 'XX' }, 'state_unknown'],
      [{ country: 'US' }, 'state_required'],
      [{ country: 'AQ' }, 'country_not_sold'],
      [{ country: 'ZZ' }, 'country_unknown'],
    ] as const;
    for (const [billingAddress, reason] of cases) {
      const res = await planTax(plan.id, { billingAddress });
      expect(res.status, JSON.stringify(billingAddress)).toBe(422);
      expect(res.json).toMatchObject({ statusCode: 422, code: 'checkout.tax_unavailable', details: { reason } });
      expectCors(res);
    }
  });

  it('refuses a malformed body with 400 and an unknown plan with 404 checkout.plan_not_found', async () => {
    const plan = await orgPlan(a);
    for (const body of [
      {},
      { billingAddress: { country: 'USA' } },
      { billingAddress: { country: 'DE' }, quantity: 0 },
      { billingAddress: { country: 'DE' }, extra: 1 },
    ]) {
      const res = await planTax(plan.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({ statusCode: 400, code: 'request.validation_failed' });
    }
    for (const id of [unknownPlanId(), 'nope']) {
      const res = await planTax(id, { billingAddress: { country: 'DE' } });
      expect(res.status, id).toBe(404);
      expect(res.json).toMatchObject({ code: 'checkout.plan_not_found' });
    }
  });
});

describe('checkout: order tax preview', () => {
  it('taxes each order line for a US state, rounded to the cent per line, all due today and with no promo note', async () => {
    const order = await createOrder(a, { currency: 'USD', lines: [line('Consulting', 10, 3), line('Gift wrap', 0.1, 3)] });
    const res = await orderTax(order.id, { billingAddress: { country: 'US', state: 'NY', postalCode: '10001' } });
    expect(res.status, res.text).toBe(200);
    expectCors(res);
    // NY 4 %: 30.00 → 1.20; 0.30 → 0.012 → 0.01.
    expect(res.json).toEqual({
      currency: 'USD',
      jurisdiction: { country: 'US', state: 'NY' },
      rate: '0.04',
      rates: expect.arrayContaining([{ level: 'state', type: expect.any(String), rate: '0.04', validFrom: expect.any(String), source: expect.any(String) }]),
      reason: null,
      lines: [
        { type: 'custom', description: 'Consulting', quantity: 3, unitAmount: 10, amount: 30, tax: 1.2, dueToday: true },
        { type: 'custom', description: 'Gift wrap', quantity: 3, unitAmount: 0.1, amount: 0.3, tax: 0.01, dueToday: true },
      ],
      subtotal: 30.3,
      tax: 1.21,
      total: 31.51,
      subtotalDueToday: 30.3,
      taxDueToday: 1.21,
      amountDueToday: 31.51,
      promoCodeApplied: false,
      note: null,
    });
  });

  it('taxes a JPY order for an EU country in whole yen', async () => {
    const order = await createOrder(a, { currency: 'JPY', lines: [line('Tea set', 1234, 1), line('Cup', 15, 3)] });
    const res = await orderTax(order.id, { billingAddress: { country: 'fr' } });
    expect(res.status, res.text).toBe(200);
    // FR 20 %: ¥1234 → 246.8 → ¥247; ¥45 → ¥9.
    expect(res.json).toMatchObject({
      currency: 'JPY',
      jurisdiction: { country: 'FR', state: null },
      rate: '0.2',
      lines: [
        { amount: 1234, tax: 247 },
        { amount: 45, tax: 9 },
      ],
      subtotal: 1279,
      tax: 256,
      total: 1535,
      amountDueToday: 1535,
    });
  });

  it('answers 422 checkout.tax_unavailable, 404 for an unknown order and 400 for a quantity', async () => {
    const order = await createOrder(a, { currency: 'USD', lines: [line('Thing', 5, 1)] });
    const unavailable = await orderTax(order.id, { billingAddress: { country: 'US', state: 'XX' } });
    expect(unavailable.status, unavailable.text).toBe(422);
    expect(unavailable.json).toMatchObject({ code: 'checkout.tax_unavailable', details: { reason: 'state_unknown', country: 'US', state: 'XX' } });
    expectCors(unavailable);

    const quantity = await orderTax(order.id, { billingAddress: { country: 'DE' }, quantity: 2 });
    expect(quantity.status, quantity.text).toBe(400);
    expect(quantity.json).toMatchObject({ code: 'checkout.quantity_not_allowed' });

    for (const id of [unknownOrderId(), 'bad-id']) {
      const res = await orderTax(id, { billingAddress: { country: 'DE' } });
      expect(res.status, id).toBe(404);
      expect(res.json).toMatchObject({ code: 'checkout.order_not_found' });
    }
    // The order is unchanged by the previews.
    const after = await readOrder(order.id);
    expect(after.json.order).toMatchObject({ status: 'open', total: 5 });
  });

  it('answers a preflight for the tax paths with POST allowed and no credentials', async () => {
    for (const path of [`/v1/checkout/orders/${unknownOrderId()}/tax`, `/v1/checkout/plans/${unknownPlanId()}/tax`]) {
      const res = await call('OPTIONS', path, {
        headers: { ...ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
      expectCors(res);
    }
  });
});
