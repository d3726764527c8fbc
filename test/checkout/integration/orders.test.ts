import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cancellationReasons, transactWrite } from '../../../shared/platform/db/transactions.ts';
import { getIdempotencyRecord } from '../../../shared/platform/db/idempotency.ts';
import { getOrderById, putNewOrder } from '../../../shared/checkout/orders.repository.ts';
import { ORDER_IDEMPOTENCY_OPERATION } from '../../../shared/checkout/orders.rules.ts';
import { call, organizationAccount, orgCall, orgPath, orgPlan, subMerchant } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const orders = (merchantId: string) => `/v1/public-api/merchants/${merchantId}/orders`;
const create = (org: Org, body: unknown, idempotencyKey?: string, key = org.merchantApiKey, merchantId = org.organizationId) =>
  call('POST', orders(merchantId), { key, body, headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey } });
const get = (org: Org, id: string, key = org.merchantApiKey, merchantId = org.organizationId) => call('GET', `${orders(merchantId)}/${id}`, { key });

const custom = (unitAmount = 10, quantity = 1, description = 'Consulting hour') => ({ description, unitAmount, quantity });
const simple = { currency: 'USD', lines: [custom(10, 1)] };
const newKey = () => `order-${randomUUID()}`;

let org: Org;
let other: Org;
let plan: Awaited<ReturnType<typeof orgPlan>>;
beforeAll(async () => {
  [org, other] = await Promise.all([organizationAccount('Orders'), organizationAccount('Other shop')]);
  plan = await orgPlan(org, { name: 'Gold', pricing: { price: 19.99, formula: 'fixed-fee' } });
});

describe('orders: create and read', () => {
  it('creates an open order of a plan line and a custom line, with line amounts and totals in major units, and reads it back', async () => {
    const res = await create(org, {
      currency: 'USD',
      lines: [{ planId: plan.id, quantity: 3 }, custom(0.1, 3, 'Gift wrap')],
      customerEmail: 'Buyer@Example.com',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(res.json.id).toMatch(/^ord_[0-9a-f]{32}$/);
    expect(res.json).toEqual({
      id: res.json.id,
      merchantId: org.organizationId,
      status: 'open',
      currency: 'USD',
      lines: [
        { type: 'plan', planId: plan.id, description: 'Gold', quantity: 3, unitAmount: 19.99, amount: 59.97 },
        { type: 'custom', planId: null, description: 'Gift wrap', quantity: 3, unitAmount: 0.1, amount: 0.3 },
      ],
      subtotal: 60.27,
      total: 60.27,
      customerEmail: 'buyer@example.com',
      createdAt: res.json.createdAt,
      paidAt: null,
      transactionId: null,
    });
    const read = await get(org, res.json.id);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(res.json);
    const stored = await getOrderById(res.json.id);
    expect(stored).toMatchObject({
      subtotal: 6027,
      total: 6027,
      lines: [
        { unitAmount: 1999, amount: 5997 },
        { unitAmount: 10, amount: 30 },
      ],
    });
  });

  it("computes totals in the currency's minor units (JPY has none, BHD three)", async () => {
    const yen = await create(org, { currency: 'JPY', lines: [custom(1500, 2)] });
    expect(yen.status, yen.text).toBe(201);
    expect(yen.json).toMatchObject({ subtotal: 3000, total: 3000, customerEmail: null });
    const dinar = await create(org, { currency: 'BHD', lines: [custom(1.005, 3), custom(0.001, 1)] });
    expect(dinar.status, dinar.text).toBe(201);
    expect(dinar.json).toMatchObject({ lines: [{ amount: 3.015 }, { amount: 0.001 }], total: 3.016 });
  });

  it('lets a parent key create and read orders of its sub-merchant', async () => {
    const sub = await subMerchant(org.merchantApiKey);
    const res = await create(org, simple, undefined, org.merchantApiKey, sub.id);
    expect(res.status, res.text).toBe(201);
    expect(res.json.merchantId).toBe(sub.id);
    expect((await get(org, res.json.id, org.merchantApiKey, sub.id)).json.id).toBe(res.json.id);
    // The sub-merchant's order is not the parent's.
    expect((await get(org, res.json.id)).status).toBe(404);
  });

  it("answers 403 for a merchant outside the key's scope, and creates nothing there", async () => {
    const idempotencyKey = newKey();
    const res = await create(org, simple, idempotencyKey, other.merchantApiKey);
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('forbidden');
    expect(await getIdempotencyRecord(org.organizationId, ORDER_IDEMPOTENCY_OPERATION, idempotencyKey)).toBeNull();
    expect((await get(org, 'ord_0123456789abcdef0123456789abcdef', other.merchantApiKey)).status).toBe(403);
  });

  it("answers 404 order.not_found for another merchant's order, an unknown id and a malformed id", async () => {
    const theirs = await create(other, simple);
    expect(theirs.status).toBe(201);
    for (const id of [theirs.json.id, `ord_${'0'.repeat(32)}`, 'not-an-order']) {
      const res = await get(org, id);
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('order.not_found');
    }
  });
});

describe('orders: immutability', () => {
  it('has no route that changes or deletes an order', async () => {
    const made = await create(org, simple);
    for (const method of ['PATCH', 'PUT', 'DELETE']) {
      const res = await call(method, `${orders(org.organizationId)}/${made.json.id}`, {
        key: org.merchantApiKey,
        body: method === 'DELETE' ? undefined : { currency: 'EUR' },
      });
      expect(res.status).toBe(405);
      expect(res.json.code).toBe('route.method_not_allowed');
    }
    expect((await get(org, made.json.id)).json).toEqual(made.json);
  });

  it('refuses a second write of an order id at the repository', async () => {
    const made = await create(org, simple);
    const stored = (await getOrderById(made.json.id))!;
    const error = await transactWrite([['order', [putNewOrder({ ...stored, total: 1, subtotal: 1 })]]]).catch((e: unknown) => e);
    expect(cancellationReasons(error)).toEqual(['ConditionalCheckFailed']);
    expect(await getOrderById(made.json.id)).toEqual(stored);
  });
});

describe('orders: Idempotency-Key', () => {
  it('answers a replay with another body with the original order, 201 and Idempotent-Replayed: true', async () => {
    const idempotencyKey = newKey();
    const first = await create(org, simple, idempotencyKey);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await create(org, { currency: 'EUR', lines: [custom(999, 5, 'Something else')] }, idempotencyKey);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(first.text);
    const record = await getIdempotencyRecord(org.organizationId, ORDER_IDEMPOTENCY_OPERATION, idempotencyKey);
    expect(record?.resourceId).toBe(first.json.id);
  });

  it('accepts a key of 255 characters and refuses 256 characters and an empty key with 400, writing nothing', async () => {
    const longest = `${randomUUID()}${'k'.repeat(219)}`;
    expect(longest).toHaveLength(255);
    const ok = await create(org, simple, longest);
    expect(ok.status, ok.text).toBe(201);
    expect((await create(org, simple, longest)).json.id).toBe(ok.json.id);

    const tooLong = `${randomUUID()}${'k'.repeat(220)}`;
    expect(tooLong).toHaveLength(256);
    for (const key of [tooLong, '']) {
      const res = await create(org, simple, key);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('request.invalid_idempotency_key');
    }
    expect(await getIdempotencyRecord(org.organizationId, ORDER_IDEMPOTENCY_OPERATION, tooLong)).toBeNull();
  });

  it('creates one order for 10 concurrent requests with one key, and answers it to all of them', async () => {
    const idempotencyKey = newKey();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => create(org, { currency: 'USD', lines: [custom(i + 1, 1)] }, idempotencyKey)));
    for (const res of answers) expect(res.status, res.text).toBe(201);
    const ids = new Set(answers.map((res) => res.json.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((res) => res.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    const record = await getIdempotencyRecord(org.organizationId, ORDER_IDEMPOTENCY_OPERATION, idempotencyKey);
    expect(record?.resourceId).toBe([...ids][0]);
    expect(new Set(answers.map((res) => res.text)).size).toBe(1);
  });

  it('scopes keys per merchant: the same key on two merchants makes two orders', async () => {
    const idempotencyKey = newKey();
    const mine = await create(org, simple, idempotencyKey);
    const theirs = await create(other, simple, idempotencyKey);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.json.id).not.toBe(mine.json.id);
    expect(theirs.json.merchantId).toBe(other.organizationId);
  });

  it('leaves a key unused when its request is refused, so a corrected request with it creates the order', async () => {
    const idempotencyKey = newKey();
    const refused = await create(org, { currency: 'EUR', lines: [{ planId: plan.id, quantity: 1 }] }, idempotencyKey);
    expect(refused.status).toBe(422);
    expect(await getIdempotencyRecord(org.organizationId, ORDER_IDEMPOTENCY_OPERATION, idempotencyKey)).toBeNull();
    const ok = await create(org, { currency: 'USD', lines: [{ planId: plan.id, quantity: 1 }] }, idempotencyKey);
    expect(ok.status).toBe(201);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('orders: refused requests', () => {
  it.each([
    ['no lines', { currency: 'USD', lines: [] }, 'lines'],
    ['an unknown currency', { currency: 'XXY', lines: [custom()] }, 'currency'],
    ['an unknown field', { ...simple, note: 'x' }, 'note'],
    ['a quantity of 0', { currency: 'USD', lines: [custom(10, 0)] }, 'lines.0'],
    ['a fractional quantity', { currency: 'USD', lines: [custom(10, 1.5)] }, 'lines.0'],
    ['a zero unit amount', { currency: 'USD', lines: [custom(0, 1)] }, 'lines.0'],
    ['a line mixing both forms', { currency: 'USD', lines: [{ ...custom(), planId: 'plan_0123456789abcdef0123456789abcdef' }] }, 'lines.0'],
    ['too many decimals for USD', { currency: 'USD', lines: [custom(10.001, 1)] }, 'lines.0.unitAmount'],
    ['decimals in JPY', { currency: 'JPY', lines: [custom(10.5, 1)] }, 'lines.0.unitAmount'],
    ['an empty description', { currency: 'USD', lines: [custom(10, 1, '  ')] }, 'lines.0'],
    ['a malformed e-mail', { ...simple, customerEmail: 'nope' }, 'customerEmail'],
  ])('answers 400 request.validation_failed for %s', async (_what, body, field) => {
    const idempotencyKey = newKey();
    const res = await create(org, body, idempotencyKey);
    expect(res.status, res.text).toBe(400);
    expect(res.json.code).toBe('request.validation_failed');
    expect(res.json.details.issues.map((i: { field: string }) => i.field).join(' ')).toContain(field);
    expect(await getIdempotencyRecord(org.organizationId, ORDER_IDEMPOTENCY_OPERATION, idempotencyKey)).toBeNull();
  });

  it('says one problem a field, the one that is true: a negative or huge amount is not told it has too many decimals', async () => {
    for (const [unitAmount, message] of [
      [-5, 'must not be negative'],
      [1e308, 'must be at most 1000000000000'],
      [9_007_199_254_740_992, 'must be at most 1000000000000'],
      [10.001, 'has more decimals than its currency allows'],
    ] as const) {
      const res = await create(org, { currency: 'USD', lines: [custom(unitAmount, 1)] }, newKey());
      expect(res.status, res.text).toBe(400);
      expect(res.json.details.issues, String(unitAmount)).toEqual([{ field: 'lines.0.unitAmount', message }]);
      expect(res.json.message).toBe(`lines.0.unitAmount: ${message}`);
    }
  });

  it('answers 422 for a plan of another merchant, an inactive plan and a plan in another currency', async () => {
    const theirs = await orgPlan(other);
    const inactive = await orgPlan(org);
    const off = await orgCall('PATCH', `${orgPath(org.organizationId)}/plans/${inactive.id}`, { fullKey: org.fullKey, body: { isActive: false } });
    expect(off.status, off.text).toBe(200);
    const euro = await orgPlan(org, { currency: 'EUR' });
    const cases: Array<[string, string]> = [
      [theirs.id, 'order.plan_not_found'],
      [`plan_${'0'.repeat(32)}`, 'order.plan_not_found'],
      [inactive.id, 'order.plan_inactive'],
      [euro.id, 'order.plan_currency_mismatch'],
    ];
    for (const [planId, code] of cases) {
      const res = await create(org, { currency: 'USD', lines: [custom(), { planId, quantity: 1 }] });
      expect(res.status, res.text).toBe(422);
      expect(res.json.code).toBe(code);
      expect(res.json.details).toMatchObject({ line: 1, planId });
    }
  });

  it('answers 422 order.amount_over_limit above 100000 and accepts exactly 100000', async () => {
    const over = await create(org, { currency: 'USD', lines: [custom(50_000, 2), custom(0.01, 1)] });
    expect(over.status).toBe(422);
    expect(over.json.code).toBe('order.amount_over_limit');
    const limit = await create(org, { currency: 'USD', lines: [custom(50_000, 2)] });
    expect(limit.status).toBe(201);
    expect(limit.json.total).toBe(100_000);
  });

  it('answers 401 without a key', async () => {
    const res = await call('POST', orders(org.organizationId), { body: simple });
    expect(res.status).toBe(401);
  });
});
