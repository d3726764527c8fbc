/**
 * A client no one here wrote judges the contract: `openapi-fetch`, typed by what `openapi-typescript` made of the
 * sandbox document (`test/generated/openapi.d.ts`), drives the getting-started journey — with the organization key
 * a new merchant gets, create a product and a plan (organization API), an order (merchant API), then read the
 * checkout of the plan and of the order as a buyer's page does. Every call is typed by the document alone: a path,
 * parameter, body field or answer the document got wrong breaks the type check or the run.
 */
import createClient from 'openapi-fetch';
import { describe, expect, inject, it } from 'vitest';
import type { paths } from '../../generated/openapi.d.ts';
import { routeList } from '../../../shared/routes/index.ts';
import { organizationAccount } from '../../support/fixtures.ts';

const client = createClient<paths>({ baseUrl: new URL(inject('baseUrl')).origin });

describe('the getting-started journey through openapi-fetch', () => {
  it('creates a product, a plan and an order, and reads the checkout of the plan and of the order', async () => {
    const org = await organizationAccount('Getting started');
    const organizationId = org.organizationId;
    const asAccount = { Authorization: `ApiKey ${org.fullKey}` };

    const product = await client.POST('/api/v1/public-api/organizations/{organizationId}/products', {
      params: { path: { organizationId } },
      headers: asAccount,
      body: { product: { name: 'Pro plan', type: 'one-time' } },
    });
    expect(product.response.status, JSON.stringify(product.error)).toBe(201);
    const productId = product.data!.data.id;

    const plan = await client.POST('/api/v1/public-api/organizations/{organizationId}/plans', {
      params: { path: { organizationId } },
      headers: asAccount,
      body: { name: 'Pro', currency: 'USD', productId, pricing: { price: 49, formula: 'fixed-fee' } },
    });
    expect(plan.response.status, JSON.stringify(plan.error)).toBe(201);
    const planId = plan.data!.data.id;

    const order = await client.POST('/api/v1/public-api/merchants/{merchantId}/orders', {
      params: { path: { merchantId: organizationId } },
      headers: { Authorization: `Bearer ${org.merchantApiKey}` },
      body: { currency: 'USD', lines: [{ planId, quantity: 2 }], customerEmail: 'buyer@example.com' },
    });
    expect(order.response.status, JSON.stringify(order.error)).toBe(201);
    const orderId = order.data!.id;
    expect(order.data!.lines[0]!.planId).toBe(planId);

    const planCheckout = await client.GET('/api/v1/checkout/plans/{planId}', { params: { path: { planId } } });
    expect(planCheckout.response.status, JSON.stringify(planCheckout.error)).toBe(200);
    expect(JSON.stringify(planCheckout.data)).toContain(planId);

    const orderCheckout = await client.GET('/api/v1/checkout/orders/{orderId}', { params: { path: { orderId } } });
    expect(orderCheckout.response.status, JSON.stringify(orderCheckout.error)).toBe(200);
    expect(JSON.stringify(orderCheckout.data)).toContain(orderId);
  });

  it('gets a refusal in the face error body the document declares', async () => {
    const refused = await client.GET('/api/v1/checkout/plans/{planId}', { params: { path: { planId: `plan_${'0'.repeat(32)}` } } });
    expect(refused.response.status).toBe(404);
    // The refusal the document gives the route (its unknownId's), typed as the checkout face's error body.
    const documented = routeList.find((r) => r.name === 'checkout-plans-get')!.unknownId!('planId');
    expect(refused.error?.code).toBe(documented.code);
    expect(refused.error?.statusCode).toBe(404);
  });
});
