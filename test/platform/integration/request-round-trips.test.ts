/**
 * DynamoDB calls per request on the merchant API: each handler runs in this process with the event the gateway
 * would build, and every command it sends to the table is counted. Keys are used once before counting, so the
 * at-most-once-a-minute `lastUsedAt` write of a key's first use is not part of the steady-state budget.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { handler as getBalanceSummary } from '../../../functions/money/balances/get-balance-summary.ts';
import { handler as createApiKey } from '../../../functions/people/api-keys/create-api-key.ts';
import { handler as getMerchantCustomer } from '../../../functions/customers/get-merchant-customer.ts';
import { handler as createMerchant } from '../../../functions/people/merchants/create-merchant.ts';
import { handler as getMerchant } from '../../../functions/people/merchants/get-merchant.ts';
import { handler as getOrder } from '../../../functions/checkout/orders/get-order.ts';
import { getMerchant as readMerchant } from '../../../shared/people/merchants.repository.ts';
import { listApiKeys } from '../../../shared/people/api-keys.repository.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';
import * as moneyRoutes from '../../../shared/money/routes.ts';
import * as peopleRoutes from '../../../shared/people/routes.ts';
import { invokeCounted } from '../../support/dynamo-counter.ts';
import { call, organizationAccount, orgCall, orgPath, PASSWORD, rootMerchant, subMerchant, uniqueEmail } from '../../support/fixtures.ts';

const BUDGET = 2;

/** A root merchant whose key has been used once (its `lastUsedAt` is recorded), and one sub-merchant of it. */
async function warmMerchant() {
  const root = await rootMerchant('Round trips');
  const sub = await subMerchant(root.apiKey);
  return { root, sub };
}

describe('DynamoDB calls per merchant API request', () => {
  let m: Awaited<ReturnType<typeof warmMerchant>>;
  beforeAll(async () => {
    m = await warmMerchant();
  });

  it('reads its own merchant in one call: the key and the merchant together', async () => {
    const res = await invokeCounted(peopleRoutes.getMerchant, getMerchant, { key: m.root.apiKey, params: { merchantId: m.root.merchantId } });
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(m.root.merchantId);
    expect(res.calls).toEqual(['BatchGetItem']);
  });

  it('reads a sub-merchant through the parent key within the budget', async () => {
    const res = await invokeCounted(peopleRoutes.getMerchant, getMerchant, { key: m.root.apiKey, params: { merchantId: m.sub.id } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: m.sub.id, parentId: m.root.merchantId });
    expect(res.calls.length).toBeLessThanOrEqual(BUDGET);
    expect(res.calls[0]).toBe('BatchGetItem');
  });

  it('answers an unknown merchant id with the same 403 after one call', async () => {
    const res = await invokeCounted(peopleRoutes.getMerchant, getMerchant, {
      key: m.root.apiKey,
      params: { merchantId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(res.status).toBe(403);
    expect(res.calls).toEqual(['BatchGetItem']);
  });

  it('creates a sub-merchant in two calls: the key, then one transaction that checks the parent', async () => {
    const res = await invokeCounted(peopleRoutes.createMerchant, createMerchant, { key: m.root.apiKey, body: { name: 'Counted shop' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'Counted shop', parentId: m.root.merchantId, mode: 'test', ownerAttached: false });
    expect(res.calls).toEqual(['GetItem', 'TransactWriteItems']);
    expect(await readMerchant(res.json.id)).toMatchObject({ parentId: m.root.merchantId, mode: 'test' });
  });

  it('refuses a sub-merchant key with 409 from the failed transaction condition, and creates nothing', async () => {
    const subKey = await call('POST', `/v1/public-api/merchants/${m.sub.id}/api-keys`, { key: m.root.apiKey, body: { name: 'sub key' } });
    expect(subKey.status).toBe(201);
    await call('GET', `/v1/public-api/merchants/${m.sub.id}`, { key: subKey.json.apiKey });
    const res = await invokeCounted(peopleRoutes.createMerchant, createMerchant, { key: subKey.json.apiKey, body: { name: 'Grandchild' } });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('merchant.parent_is_sub_merchant');
    expect(res.calls).toEqual(['GetItem', 'TransactWriteItems']);
  });

  it("creates a sub-merchant owned by a person of the partner's team in three calls: the key, the e-mail claim, the transaction", async () => {
    const owner = {
      email: m.root.ownerEmail,
      token: (await call('POST', '/v1/dashboard/sessions', { body: { email: m.root.ownerEmail, password: PASSWORD } })).json.token,
    };
    const res = await invokeCounted(peopleRoutes.createMerchant, createMerchant, {
      key: m.root.apiKey,
      body: { name: 'Owned shop', ownerEmail: owner.email },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'Owned shop', parentId: m.root.merchantId, ownerAttached: true, joinLink: null });
    expect(res.calls).toEqual(['GetItem', 'GetItem', 'TransactWriteItems']);
    const me = await call('GET', '/v1/dashboard/me', { key: owner.token });
    expect(me.status).toBe(200);
    expect(me.json.memberships).toContainEqual({ merchantId: res.json.id, role: 'owner' });
  });

  it('keeps the parent refusal ahead of an unknown owner e-mail', async () => {
    const subKey = await call('POST', `/v1/public-api/merchants/${m.sub.id}/api-keys`, { key: m.root.apiKey, body: { name: 'sub key 2' } });
    const res = await invokeCounted(peopleRoutes.createMerchant, createMerchant, {
      key: subKey.json.apiKey,
      body: { name: 'Grandchild', ownerEmail: uniqueEmail('nobody') },
    });
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('merchant.parent_is_sub_merchant');
  });

  it('creates an API key for its own merchant in two calls: key and merchant together, then the write', async () => {
    const res = await invokeCounted(peopleRoutes.createApiKey, createApiKey, {
      key: m.root.apiKey,
      params: { merchantId: m.root.merchantId },
      body: { name: 'counted' },
    });
    expect(res.status).toBe(201);
    expect(res.json.name).toBe('counted');
    expect(res.calls).toEqual(['BatchGetItem', 'PutItem']);
    expect((await listApiKeys(m.root.merchantId)).map((k) => k.id)).toContain(res.json.id);
  });

  it('creates an API key for a sub-merchant in two calls as well', async () => {
    const res = await invokeCounted(peopleRoutes.createApiKey, createApiKey, {
      key: m.root.apiKey,
      params: { merchantId: m.sub.id },
      body: { name: 'for sub' },
    });
    expect(res.status).toBe(201);
    expect(res.calls).toEqual(['BatchGetItem', 'PutItem']);
  });

  it('refuses an API key for a foreign merchant with 403 and writes nothing', async () => {
    const other = await rootMerchant('Foreign');
    const res = await invokeCounted(peopleRoutes.createApiKey, createApiKey, {
      key: m.root.apiKey,
      params: { merchantId: other.merchantId },
      body: { name: 'intruder' },
    });
    expect(res.status).toBe(403);
    expect(res.calls).toEqual(['BatchGetItem']);
    expect(await listApiKeys(other.merchantId)).toHaveLength(1);
  });
});

describe("DynamoDB calls per keyed read of a merchant's records", () => {
  let org: Awaited<ReturnType<typeof organizationAccount>>;
  beforeAll(async () => {
    org = await organizationAccount('Keyed reads');
    await call('GET', `/v1/public-api/merchants/${org.organizationId}`, { key: org.merchantApiKey });
  });
  const params = (extra: Record<string, string> = {}) => ({ merchantId: org.organizationId, ...extra });

  it(`reads an order in at most ${BUDGET} calls`, async () => {
    const created = await call('POST', `/v1/public-api/merchants/${org.organizationId}/orders`, {
      key: org.merchantApiKey,
      body: { currency: 'USD', lines: [{ description: 'Hour', unitAmount: 10, quantity: 1 }] },
    });
    expect(created.status, created.text).toBe(201);
    const res = await invokeCounted(checkoutRoutes.getOrder, getOrder, { key: org.merchantApiKey, params: params({ orderId: created.json.id }) });
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(created.json.id);
    expect(res.calls.length).toBeLessThanOrEqual(BUDGET);
    expect(res.calls[0]).toBe('BatchGetItem');
  });

  it(`reads a customer in at most ${BUDGET} calls`, async () => {
    const created = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, { fullKey: org.fullKey, body: { email: uniqueEmail('customer') } });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.id as string;
    const res = await invokeCounted(customerRoutes.getMerchantCustomer, getMerchantCustomer, { key: org.merchantApiKey, params: params({ id }) });
    expect(res.status).toBe(200);
    expect(res.json.id).toBe(id);
    expect(res.calls.length).toBeLessThanOrEqual(BUDGET);
    expect(res.calls[0]).toBe('BatchGetItem');
  });

  it(`reads the balance summary in at most ${BUDGET} calls`, async () => {
    const res = await invokeCounted(moneyRoutes.getBalanceSummary, getBalanceSummary, { key: org.merchantApiKey, params: params() });
    expect(res.status).toBe(200);
    expect(res.calls.length).toBeLessThanOrEqual(BUDGET);
    expect(res.calls[0]).toBe('BatchGetItem');
  });
});
