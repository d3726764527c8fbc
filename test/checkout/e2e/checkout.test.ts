import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, orgCall, organizationAccount, orgPath, orgPlan, orgProduct } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const config = (merchantId: string, headers?: Record<string, string>) => call('GET', `/v1/checkout/merchants/${merchantId}/config`, { headers });
const checkoutPlan = (planId: string, headers?: Record<string, string>) => call('GET', `/v1/checkout/plans/${planId}`, { headers });
const merchantPlan = (org: Org, merchantId: string, planId: string) =>
  call('GET', `/v1/public-api/merchants/${merchantId}/checkout/plans/${planId}`, { key: org.merchantApiKey });
const patchPlan = (org: Org, id: string, body: Record<string, unknown>) =>
  orgCall('PATCH', `${orgPath(org.organizationId)}/plans/${id}`, { fullKey: org.fullKey, body });
const patchProduct = (org: Org, id: string, product: Record<string, unknown>) =>
  orgCall('PATCH', `${orgPath(org.organizationId)}/products/${id}`, { fullKey: org.fullKey, body: { product } });

/** A plan id no plan has. */
const unknownPlanId = () => `plan_${randomUUID().replace(/-/g, '')}`;
const ORIGIN = { origin: 'https://shop.example' };

/** Words that would mean customer data or a processor purchase URL reached a public checkout answer. */
const forbidden = /email|customer|purchaseUrl|checkoutUrl|redirectUrl|ownerUserId|joinLink|apiKey|secret/i;

let a: Org;
let b: Org;
beforeAll(async () => {
  [a, b] = await Promise.all([organizationAccount('Shop A'), organizationAccount('Shop B')]);
});

describe('checkout: merchant config', () => {
  it('gives what a page needs to mount hosted fields: merchant, mode, SDK URL and accepted payments', async () => {
    const res = await config(a.organizationId, ORIGIN);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      merchantId: a.organizationId,
      merchantName: 'Shop A',
      mode: 'test',
      hostedFields: { sdkUrl: expect.stringMatching(/^http:\/\/localhost:\d+\/api\/v1\/hosted-fields\/sdk\.js$/), mountFunction: 'MorHostedFields.mount' },
      paymentMethods: ['payment-card'],
      cardBrands: expect.arrayContaining(['visa', 'mastercard']),
      customization: { displayName: null, brandColor: null, accentColor: null, logoUrl: null },
    });
    expect(res.text).not.toMatch(forbidden);
    // The SDK URL it gives is served.
    const sdk = await fetch(res.json.hostedFields.sdkUrl);
    expect(sdk.status).toBe(200);
    expect(await sdk.text()).toContain('MorHostedFields');
  });

  it('answers 404 checkout.merchant_not_found for an unknown merchant and for a malformed id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', `${a.organizationId}x`]) {
      const res = await config(id);
      expect(res.status, id).toBe(404);
      expect(res.json).toMatchObject({ statusCode: 404, code: 'checkout.merchant_not_found' });
    }
  });
});

describe('checkout: plan read', () => {
  it('shows an active plan of an active product with price in major units, interval, trial, product, URL policies and mount fields', async () => {
    const product = await orgProduct(a, { type: 'recurring', description: 'The product' });
    const plan = await orgPlan(
      a,
      {
        currency: 'EUR',
        pricing: { price: 19.99, formula: 'fixed-fee' },
        description: 'Monthly',
        recurringInterval: { unit: 'month', length: 1 },
        trial: { unit: 'day', length: 14 },
        setup: { price: 5 },
      },
      { productId: product.id },
    );
    const res = await checkoutPlan(plan.id, ORIGIN);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      merchantId: a.organizationId,
      merchantName: 'Shop A',
      mode: 'test',
      hostedFields: { sdkUrl: expect.stringMatching(/\/api\/v1\/hosted-fields\/sdk\.js$/), mountFunction: 'MorHostedFields.mount' },
      paymentMethods: ['payment-card'],
      cardBrands: expect.arrayContaining(['visa']),
      customization: { displayName: null, brandColor: null, accentColor: null, logoUrl: null },
      plan: {
        id: plan.id,
        name: plan.name,
        description: 'Monthly',
        currency: 'EUR',
        currencySign: '€',
        price: 19.99,
        formula: 'fixed-fee',
        setupPrice: 5,
        recurringInterval: { unit: 'month', length: 1, billingTiming: 'prepaid', periodAnchorInstruction: null },
        trial: { unit: 'day', length: 14 },
        isTrialOnly: false,
      },
      product: { id: product.id, name: product.name, description: 'The product', type: 'recurring', imageUrl: null },
      termsUrl: null,
      privacyUrl: null,
      returnPolicyUrl: null,
      eulaUrl: null,
      policyDocuments: [],
    });
    expect(res.text).not.toMatch(forbidden);
  });

  it('answers 404 checkout.plan_not_found for an unknown or malformed plan id', async () => {
    for (const id of [unknownPlanId(), 'plan_123', 'x'.repeat(300)]) {
      const res = await checkoutPlan(id);
      expect(res.status, id).toBe(404);
      expect(res.json).toMatchObject({ statusCode: 404, code: 'checkout.plan_not_found' });
    }
  });

  it('answers 404 for an inactive plan, and again once the plan is active but its product archived', async () => {
    const product = await orgProduct(a);
    const plan = await orgPlan(a, {}, { productId: product.id });
    expect((await checkoutPlan(plan.id)).status).toBe(200);
    expect((await patchPlan(a, plan.id, { isActive: false })).status).toBe(200);
    const inactive = await checkoutPlan(plan.id);
    expect(inactive.status).toBe(404);
    expect(inactive.json.code).toBe('checkout.plan_not_found');
    expect((await patchPlan(a, plan.id, { isActive: true })).status).toBe(200);
    expect((await checkoutPlan(plan.id)).status).toBe(200);
    expect((await patchProduct(a, product.id, { status: 'archived' })).status).toBe(200);
    const archived = await checkoutPlan(plan.id);
    expect(archived.status).toBe(404);
    expect(archived.json.code).toBe('checkout.plan_not_found');
  });
});

describe('checkout: merchant API plan read', () => {
  it("shows the merchant's own plan exactly as the buyer checkout does", async () => {
    const plan = await orgPlan(a);
    const res = await merchantPlan(a, a.organizationId, plan.id);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual((await checkoutPlan(plan.id)).json);
  });

  it("answers 404 for another merchant's plan, 403 for a merchant out of the key's scope, 401 without a key", async () => {
    const plan = await orgPlan(b);
    const foreign = await merchantPlan(a, a.organizationId, plan.id);
    expect(foreign.status).toBe(404);
    expect(foreign.json.code).toBe('checkout.plan_not_found');
    const outOfScope = await merchantPlan(a, b.organizationId, plan.id);
    expect(outOfScope.status).toBe(403);
    const anonymous = await call('GET', `/v1/public-api/merchants/${b.organizationId}/checkout/plans/${plan.id}`);
    expect(anonymous.status).toBe(401);
  });
});

describe('checkout: CORS', () => {
  it('lets any origin read checkout answers, successes and errors alike, and never allows credentials', async () => {
    const plan = await orgPlan(a);
    for (const res of [await config(a.organizationId, ORIGIN), await checkoutPlan(plan.id, ORIGIN), await checkoutPlan(unknownPlanId(), ORIGIN)]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it("answers a preflight of a checkout path with 204, the path's methods, content-type and a max-age", async () => {
    const res = await call('OPTIONS', `/v1/checkout/plans/${unknownPlanId()}`, {
      headers: { ...ORIGIN, 'access-control-request-method': 'GET', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('answers a preflight of a path no checkout route has with 404', async () => {
    const res = await call('OPTIONS', '/v1/checkout/nothing-here', { headers: { ...ORIGIN, 'access-control-request-method': 'GET' } });
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ statusCode: 404, code: 'route.not_found' });
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('gives merchant and organization routes no CORS headers, nor a preflight', async () => {
    const plan = await orgPlan(a);
    const answers = [
      await merchantPlan(a, a.organizationId, plan.id),
      await call('GET', `/v1/public-api/merchants/${a.organizationId}`, { key: a.merchantApiKey, headers: ORIGIN }),
      await orgCall('GET', `${orgPath(a.organizationId)}/plans/${plan.id}`, { fullKey: a.fullKey, headers: ORIGIN }),
      await orgCall('GET', `${orgPath(a.organizationId)}/plans/${unknownPlanId()}`, { fullKey: a.fullKey, headers: ORIGIN }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 404]);
    for (const res of answers) {
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const preflight = await call('OPTIONS', `/v1/public-api/merchants/${a.organizationId}/checkout/plans/${plan.id}`, {
      headers: { ...ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
