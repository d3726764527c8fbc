/**
 * The subscriptions routes' limits (the spec's, at the limit and one past it), bad bodies, the organization scope and
 * the error shape: a refusal changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { cardToken, organizationAccount, orgCall, orgPath, orgPlan, uniqueEmail } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;
const post = (org: Org, rest: string, body: unknown) => orgCall('POST', `${orgPath(org.organizationId)}${rest}`, { fullKey: org.fullKey, body });
const get = (org: Org, rest: string) => orgCall('GET', `${orgPath(org.organizationId)}${rest}`, { fullKey: org.fullKey });

async function shop() {
  const org = await organizationAccount('Limits shop');
  const plan = await orgPlan(org, {}, { productType: 'recurring' });
  const customerId = (await post(org, '/customers', { email: uniqueEmail('limits'), primaryAddress: { customerAddress: { country: 'US', region: 'OR' } } }))
    .json.data.id as string;
  const instrumentId = (await post(org, `/customers/${customerId}/payment-instruments`, { token: await cardToken(org) })).json.data.id as string;
  return { org, plan, customerId, instrumentId };
}

const expectRefused = (res: { status: number; json: any }, status: number, code: string, field?: string) => {
  expect(res.status).toBe(status);
  expect(res.json).toMatchObject({ errorCode: code, statusCode: status });
  if (field) expect(res.json.message).toContain(field);
};

describe('subscription limits', () => {
  it('take ids of 50 characters and refuse 51 with 400, for subscriptions, cancellations, pauses and reactivations', async () => {
    const { org, plan } = await shop();
    const at = 'x'.repeat(50);
    const past = 'x'.repeat(51);
    expectRefused(await post(org, '/subscriptions', { customerId: at, items: [{ plan: plan.id }] }), 404, 'customer.not_found');
    expectRefused(await post(org, '/subscriptions', { customerId: past, items: [{ plan: plan.id }] }), 400, 'request.validation_failed', 'customerId');
    for (const rest of ['/subscription-cancellations', '/subscription-pauses', '/subscription-reactivations']) {
      expectRefused(await post(org, rest, { subscriptionId: at }), 404, 'subscription.not_found');
      expectRefused(await post(org, rest, { subscriptionId: past }), 400, 'request.validation_failed', 'subscriptionId');
    }
    expect((await get(org, '/subscriptions')).json.totalCount).toBe(0);
  });

  it('take descriptions of 255 characters and refuse 256; refuse unknown fields, bad enums and an item without a plan', async () => {
    const { org, plan, customerId, instrumentId } = await shop();
    const sub = (await post(org, '/subscriptions', { customerId, paymentInstrumentId: instrumentId, items: [{ plan: plan.id }] })).json.data;
    expectRefused(
      await post(org, '/subscription-pauses', { subscriptionId: sub.id, description: 'd'.repeat(256) }),
      400,
      'request.validation_failed',
      'description',
    );
    expectRefused(
      await post(org, '/subscription-cancellations', { subscriptionId: sub.id, description: 'd'.repeat(256) }),
      400,
      'request.validation_failed',
      'description',
    );
    expectRefused(await post(org, '/subscription-cancellations', { subscriptionId: sub.id, reason: 'bored' }), 400, 'request.validation_failed', 'reason');
    expectRefused(await post(org, '/subscriptions', { customerId, items: [] }), 400, 'request.validation_failed', 'items');
    expectRefused(await post(org, '/subscriptions', { customerId, items: [{ plan: plan.id }], color: 'red' }), 400, 'request.validation_failed');
    expect((await get(org, `/subscriptions/${sub.id}`)).json.data.status).toBe('active');
    const pause = await post(org, '/subscription-pauses', { subscriptionId: sub.id, description: 'd'.repeat(255) });
    expect(pause.status, pause.text).toBe(201);
    const cancellation = await post(org, '/subscription-cancellations', { subscriptionId: sub.id, description: 'd'.repeat(255), status: 'draft' });
    expect(cancellation.status, cancellation.text).toBe(201);
  });

  it("refuse plans that cannot be combined, with a code per refusal, and keep another organization's records out of reach", async () => {
    const { org, plan, customerId, instrumentId } = await shop();
    const oneTime = await orgPlan(org);
    const euro = await orgPlan(org, { currency: 'EUR' }, { productType: 'recurring' });
    const yearly = await orgPlan(org, { recurringInterval: { unit: 'year', length: 1 } }, { productType: 'recurring' });
    const body = (items: Array<{ plan: string }>) => ({ customerId, paymentInstrumentId: instrumentId, items });
    expectRefused(await post(org, '/subscriptions', body([{ plan: oneTime.id }])), 422, 'subscription.plan_not_recurring');
    expectRefused(await post(org, '/subscriptions', body([{ plan: plan.id }, { plan: euro.id }])), 422, 'subscription.mixed_currencies');
    expectRefused(await post(org, '/subscriptions', body([{ plan: plan.id }, { plan: yearly.id }])), 422, 'subscription.mixed_cycles');
    expect((await get(org, '/subscriptions')).json.totalCount).toBe(0);

    const sub = (await post(org, '/subscriptions', body([{ plan: plan.id }]))).json.data;
    const other = await organizationAccount('Other shop');
    expectRefused(await get(other, `/subscriptions/${sub.id}`), 404, 'subscription.not_found');
    expectRefused(await post(other, '/subscription-cancellations', { subscriptionId: sub.id }), 404, 'subscription.not_found');
    const foreign = await orgCall('GET', `${orgPath(org.organizationId)}/subscriptions/${sub.id}`, { fullKey: other.fullKey });
    expect(foreign.status).toBe(403);
    expect((await get(org, `/subscriptions/${sub.id}`)).json.data.status).toBe('active');
  });
});
