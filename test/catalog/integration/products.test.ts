import { describe, expect, it } from 'vitest';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import { attachPlanToProduct, getProduct } from '../../../shared/catalog/products.repository.ts';
import { call, organizationAccount, orgCall, orgPath, orgProduct, rootMerchant } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const products = (org: Org) => `${orgPath(org.organizationId)}/products`;
const create = (org: Org, product: unknown) => orgCall('POST', products(org), { fullKey: org.fullKey, body: { product } });
const get = (org: Org, id: string) => orgCall('GET', `${products(org)}/${id}`, { fullKey: org.fullKey });
const patch = (org: Org, id: string, product: unknown) => orgCall('PATCH', `${products(org)}/${id}`, { fullKey: org.fullKey, body: { product } });
const remove = (org: Org, id: string) => orgCall('DELETE', `${products(org)}/${id}`, { fullKey: org.fullKey });
const list = (org: Org, query = '') => orgCall('GET', `${products(org)}${query}`, { fullKey: org.fullKey });
const merchantList = (org: Org, query = '', key = org.merchantApiKey) =>
  call('GET', `/v1/public-api/merchants/${org.organizationId}/products${query}`, { key });

const defineField = async (org: Org, name: string, typeSchema: Record<string, unknown>, resource = 'products') => {
  const res = await orgCall('POST', `${orgPath(org.organizationId)}/custom-fields`, {
    fullKey: org.fullKey,
    body: { name, resource, description: name, typeSchema },
  });
  expect(res.status).toBe(201);
};

/** What plan creation does to a product, in its own transaction. */
const attachPlan = (org: Org, productId: string) =>
  transactWrite([['product', [attachPlanToProduct(org.organizationId, productId, new Date().toISOString())]]]);

const names = (res: { json: { data: Array<{ name: string }> } }) => res.json.data.map((p) => p.name);

describe('products: create and read', () => {
  it('creates an active one-time product with defaults and answers it in the object envelope with 201', async () => {
    const org = await organizationAccount();
    const res = await create(org, { name: 'Widget' });
    expect(res.status).toBe(201);
    expect(res.json.type).toBe('object');
    expect(res.json.data).toEqual({
      id: expect.stringMatching(/^prod_[0-9a-f]{32}$/),
      organizationId: org.organizationId,
      name: 'Widget',
      unitLabel: null,
      description: null,
      requiresShipping: false,
      options: [],
      taxCategoryId: null,
      accountingCode: null,
      recognition: null,
      status: 'active',
      type: 'one-time',
      customFields: {},
      createdAt: expect.any(String),
      updatedAt: res.json.data.createdAt,
    });
    const read = await get(org, res.json.data.id);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(res.json);
  });

  it('keeps every field it is given', async () => {
    const org = await organizationAccount();
    const product = {
      name: 'Pro plan seat',
      unitLabel: 'seat',
      description: 'One seat',
      requiresShipping: true,
      options: ['small', 'large'],
      taxCategoryId: 'txcd_10000000',
      accountingCode: '4000',
      recognition: { debitAccountId: '1200', creditAccountId: '4000' },
      type: 'recurring',
    };
    const res = await create(org, product);
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ ...product, status: 'active' });
    expect((await get(org, res.json.data.id)).json.data).toEqual(res.json.data);
  });

  it('accepts every length limit at its value and refuses one past it with 400, creating nothing', async () => {
    const org = await organizationAccount();
    const limits: Array<[string, number, (n: number) => Record<string, unknown>]> = [
      ['name', 255, (n) => ({ name: 'n'.repeat(n) })],
      ['unitLabel', 50, (n) => ({ unitLabel: 'u'.repeat(n) })],
      ['description', 1000, (n) => ({ description: 'd'.repeat(n) })],
      ['taxCategoryId', 50, (n) => ({ taxCategoryId: 't'.repeat(n) })],
      ['accountingCode', 50, (n) => ({ accountingCode: 'a'.repeat(n) })],
      ['recognition.debitAccountId', 50, (n) => ({ recognition: { debitAccountId: 'd'.repeat(n) } })],
      ['recognition.creditAccountId', 50, (n) => ({ recognition: { creditAccountId: 'c'.repeat(n) } })],
      ['options', 50, (n) => ({ options: Array.from({ length: n }, (_, i) => `o${i}`) })],
      ['options.0', 100, (n) => ({ options: ['o'.repeat(n)] })],
    ];
    let created = 0;
    for (const [field, max, body] of limits) {
      const ok = await create(org, { name: 'Limit', ...body(max) });
      expect(ok.status, `${field} at ${max}`).toBe(201);
      created++;
      const refused = await create(org, { name: 'Limit', ...body(max + 1) });
      expect(refused.status, `${field} at ${max + 1}`).toBe(400);
      expect(refused.json.errorCode).toBe('request.validation_failed');
      expect(refused.json.details).toContain(`product.${field}`);
    }
    expect((await list(org, '?limit=0')).json.totalCount).toBe(created);
  });

  it('refuses a body without product, without a name, with a blank name, an unknown type, status or field with 400', async () => {
    const org = await organizationAccount();
    const bodies: unknown[] = [
      {},
      { name: 'flat' },
      { product: {} },
      { product: { name: '  ' } },
      { product: { name: 'X', type: 'weekly' } },
      { product: { name: 'X', status: 'archived' } },
      { product: { name: 'X', price: 10 } },
      { product: { name: 'X', options: 'a' } },
      { product: { name: 'X', requiresShipping: 'yes' } },
      { product: { name: 'X', customFields: { a: { nested: true } } } },
    ];
    for (const body of bodies) {
      const res = await orgCall('POST', products(org), { fullKey: org.fullKey, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
    }
    expect((await list(org)).json.totalCount).toBe(0);
  });

  it("answers 404 for unknown and malformed ids, and for another organization's product", async () => {
    const [owner, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    const p = await orgProduct(owner, { name: 'Mine' });
    for (const id of [`prod_${'0'.repeat(32)}`, 'nope', p.id.toUpperCase(), `web_${'0'.repeat(32)}`]) {
      const res = await get(owner, id);
      expect(res.status, id).toBe(404);
      expect(res.json).toMatchObject({ errorCode: 'product.not_found', statusCode: 404 });
    }
    expect((await get(other, p.id)).status).toBe(404);
    expect(await getProduct(other.organizationId, p.id)).toBeNull();
    expect(await getProduct(owner.organizationId, 'nope')).toBeNull();
  });
});

describe('products: custom fields', () => {
  it('stores values that fit their fields and applies defaults to missing ones', async () => {
    const org = await organizationAccount();
    await defineField(org, 'tier', { type: 'enum', additionalSchema: { allowedValues: ['gold', 'silver'], required: true, default: 'silver' } });
    await defineField(org, 'weight', { type: 'number' });
    await defineField(org, 'fragile', { type: 'boolean' });
    await defineField(org, 'since', { type: 'date' });
    const res = await create(org, { name: 'Custom', customFields: { weight: 2.5, fragile: false, since: '2025-03-01T10:00:00+02:00' } });
    expect(res.status).toBe(201);
    expect(res.json.data.customFields).toEqual({ tier: 'silver', weight: 2.5, fragile: false, since: '2025-03-01T08:00:00.000Z' });
    expect((await get(org, res.json.data.id)).json.data.customFields).toEqual(res.json.data.customFields);
  });

  it('refuses a wrong type, a value outside the enum, an unknown name and a missing required field with 400 naming it', async () => {
    const org = await organizationAccount();
    await defineField(org, 'tier', { type: 'enum', additionalSchema: { allowedValues: ['gold', 'silver'] } });
    await defineField(org, 'weight', { type: 'number' });
    await defineField(org, 'sku', { type: 'string', additionalSchema: { required: true } });
    await defineField(org, 'size', { type: 'string' }, 'plans');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ sku: 'A', weight: 'heavy' }, 'weight'],
      // Numbers a record cannot store as given (past 2^53 - 1, or nearer zero than 1e-130): refused, never a 5xx.
      [{ sku: 'A', weight: 9007199254740994 }, 'weight'],
      [{ sku: 'A', weight: -1e300 }, 'weight'],
      [{ sku: 'A', weight: 1e-300 }, 'weight'],
      [{ sku: 'A', tier: 'bronze' }, 'tier'],
      [{ sku: 'A', color: 'red' }, 'color'],
      [{ sku: 'A', size: 'XL' }, 'size'],
      [{ sku: 7 }, 'sku'],
      [{ weight: 1 }, 'sku'],
    ];
    for (const [customFields, field] of cases) {
      const res = await create(org, { name: 'Refused', customFields });
      expect(res.status, JSON.stringify(customFields)).toBe(400);
      expect(res.json.errorCode).toBe('custom_field.invalid');
      expect(res.json.message).toContain(`customFields.${field}`);
      expect(res.json.details).toBe(`field: customFields.${field}`);
    }
    const missing = await create(org, { name: 'No values' });
    expect(missing.status).toBe(400);
    expect(missing.json.details).toBe('field: customFields.sku');
    expect((await list(org)).json.totalCount).toBe(0);
    expect((await create(org, { name: 'Fine', customFields: { sku: 'A', tier: 'gold' } })).status).toBe(201);
  });

  it('refuses any custom-field value when the organization defined none for products', async () => {
    const org = await organizationAccount();
    const res = await create(org, { name: 'Bare', customFields: { anything: 1 } });
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('custom_field.invalid');
  });

  it('refuses more than 50 values with 400', async () => {
    const org = await organizationAccount();
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, 'x']));
    const res = await create(org, { name: 'Crowded', customFields: many });
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('request.validation_failed');
  });

  it('replaces the values on PATCH, validated the same way', async () => {
    const org = await organizationAccount();
    await defineField(org, 'weight', { type: 'number', additionalSchema: { default: 1 } });
    await defineField(org, 'note', { type: 'string' });
    const p = await orgProduct(org, { customFields: { weight: 3, note: 'hi' } });
    const replaced = await patch(org, p.id, { customFields: { note: 'bye' } });
    expect(replaced.status).toBe(200);
    expect(replaced.json.data.customFields).toEqual({ note: 'bye', weight: 1 });
    const refused = await patch(org, p.id, { customFields: { weight: 'x' } });
    expect(refused.status).toBe(400);
    expect(refused.json.details).toBe('field: customFields.weight');
    expect((await get(org, p.id)).json.data.customFields).toEqual({ note: 'bye', weight: 1 });
  });
});

describe('products: change', () => {
  it('changes only the given fields, clears a field given as null, and moves updatedAt', async () => {
    const org = await organizationAccount();
    const p = await orgProduct(org, { name: 'Old', description: 'Keep me', unitLabel: 'box', recognition: { debitAccountId: '1' } });
    const res = await patch(org, p.id, { name: 'New', unitLabel: null, requiresShipping: true });
    expect(res.status).toBe(200);
    expect(res.json.type).toBe('object');
    expect(res.json.data).toEqual({
      ...p,
      name: 'New',
      unitLabel: null,
      requiresShipping: true,
      updatedAt: expect.any(String),
    });
    expect(res.json.data.updatedAt > p.updatedAt).toBe(true);
    expect(res.json.data.recognition).toEqual({ debitAccountId: '1', creditAccountId: null });
    const cleared = await patch(org, p.id, { recognition: null, description: null });
    expect(cleared.json.data).toMatchObject({ recognition: null, description: null, name: 'New' });
  });

  it('keeps both changes when two PATCHes of different fields run at once, and search finds both', async () => {
    const org = await organizationAccount();
    const p = await orgProduct(org, { name: 'Plain', description: 'plain' });
    const [a, b] = await Promise.all([patch(org, p.id, { name: 'Zebra' }), patch(org, p.id, { description: 'Striped horse' })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await get(org, p.id)).json.data).toMatchObject({ name: 'Zebra', description: 'Striped horse' });
    expect(names(await list(org, '?search=zebra'))).toEqual(['Zebra']);
    expect(names(await list(org, '?search=HORSE'))).toEqual(['Zebra']);
  });

  it('can archive and re-activate a product through status', async () => {
    const org = await organizationAccount();
    const p = await orgProduct(org);
    expect((await patch(org, p.id, { status: 'archived' })).json.data.status).toBe('archived');
    expect((await patch(org, p.id, { status: 'active' })).json.data.status).toBe('active');
  });

  it('refuses an empty change and bad values with 400, changing nothing', async () => {
    const org = await organizationAccount();
    const p = await orgProduct(org, { name: 'Stable' });
    for (const product of [{}, { name: null }, { name: '' }, { name: 'n'.repeat(256) }, { type: 'weekly' }, { status: 'deleted' }, { id: 'prod_x' }]) {
      const res = await patch(org, p.id, product);
      expect(res.status, JSON.stringify(product)).toBe(400);
    }
    expect((await orgCall('PATCH', `${products(org)}/${p.id}`, { fullKey: org.fullKey, body: { name: 'flat' } })).status).toBe(400);
    expect((await get(org, p.id)).json.data).toEqual(p);
  });

  it("answers 404 to a PATCH of an unknown or another organization's product, and creates or changes nothing", async () => {
    const [owner, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    const p = await orgProduct(owner, { name: 'Theirs' });
    const foreign = await patch(other, p.id, { name: 'Mine now' });
    expect(foreign.status).toBe(404);
    expect(foreign.json.errorCode).toBe('product.not_found');
    expect((await get(owner, p.id)).json.data).toEqual(p);
    const unknown = `prod_${'1'.repeat(32)}`;
    expect((await patch(other, unknown, { name: 'Ghost' })).status).toBe(404);
    expect((await get(other, unknown)).status).toBe(404);
    expect((await list(other)).json.totalCount).toBe(0);
  });

  it('changes the type of a product without plans, and refuses it with 409 once the product has a plan', async () => {
    const org = await organizationAccount();
    const p = await orgProduct(org, { type: 'one-time' });
    expect((await patch(org, p.id, { type: 'recurring' })).json.data.type).toBe('recurring');
    await attachPlan(org, p.id);
    const locked = await patch(org, p.id, { type: 'one-time', name: 'Renamed too' });
    expect(locked.status).toBe(409);
    expect(locked.json).toMatchObject({ errorCode: 'product.type_locked', statusCode: 409 });
    expect((await get(org, p.id)).json.data).toMatchObject({ type: 'recurring', name: p.name });
    const same = await patch(org, p.id, { type: 'recurring', name: 'Renamed' });
    expect(same.status).toBe(200);
    expect(same.json.data).toMatchObject({ type: 'recurring', name: 'Renamed' });
  });
});

describe('products: delete or archive', () => {
  it('deletes a product without plans with {success: true}; it is 404 afterwards', async () => {
    const org = await organizationAccount();
    const p = await orgProduct(org);
    const res = await remove(org, p.id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true });
    expect((await get(org, p.id)).status).toBe(404);
    expect((await remove(org, p.id)).status).toBe(404);
    expect((await list(org)).json.totalCount).toBe(0);
  });

  it('archives a product that has plans and answers the archived product; archiving again changes nothing', async () => {
    const org = await organizationAccount();
    const p = await orgProduct(org);
    await attachPlan(org, p.id);
    const res = await remove(org, p.id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ type: 'object', data: { ...p, status: 'archived', updatedAt: expect.any(String) } });
    expect((await get(org, p.id)).json.data).toEqual(res.json.data);
    const again = await remove(org, p.id);
    expect(again.json).toEqual(res.json);
  });

  it("answers 404 to a DELETE of another organization's product and leaves it", async () => {
    const [owner, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    const p = await orgProduct(owner);
    const res = await remove(other, p.id);
    expect(res.status).toBe(404);
    expect(res.json.errorCode).toBe('product.not_found');
    expect((await get(owner, p.id)).json.data).toEqual(p);
    expect((await remove(owner, 'malformed')).status).toBe(404);
  });

  it('lets a plan attach only to an existing, active product of the same organization', async () => {
    const [org, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    const p = await orgProduct(org);
    await expect(attachPlan(other, p.id)).rejects.toThrow();
    await expect(attachPlan(org, `prod_${'2'.repeat(32)}`)).rejects.toThrow();
    await patch(org, p.id, { status: 'archived' });
    await expect(attachPlan(org, p.id)).rejects.toThrow();
    expect((await getProduct(org.organizationId, p.id))!.planCount).toBe(0);
    await patch(org, p.id, { status: 'active' });
    await attachPlan(org, p.id);
    expect((await getProduct(org.organizationId, p.id))!.planCount).toBe(1);
  });

  it('never deletes a product a plan attached to at the same moment', async () => {
    const org = await organizationAccount();
    for (let round = 0; round < 5; round++) {
      const p = await orgProduct(org);
      const [deleted, attached] = await Promise.allSettled([remove(org, p.id), attachPlan(org, p.id)]);
      expect(deleted.status).toBe('fulfilled');
      const answer = (deleted as PromiseFulfilledResult<Awaited<ReturnType<typeof remove>>>).value;
      expect(answer.status).toBe(200);
      const stored = await getProduct(org.organizationId, p.id);
      if (attached.status === 'fulfilled') {
        // The plan landed first: the product must be kept (archived) with its plan counted.
        expect(answer.json.data?.status).toBe('archived');
        expect(stored).toMatchObject({ status: 'archived', planCount: 1 });
      } else {
        // The delete landed first: the plan was refused and the product is gone.
        expect(answer.json).toEqual({ success: true });
        expect(stored).toBeNull();
      }
    }
  });
});

describe('products: list', () => {
  it('lists in the list envelope, newest first by default, and pages with limit and offset', async () => {
    const org = await organizationAccount();
    for (const name of ['One', 'Two', 'Three']) await orgProduct(org, { name });
    const res = await list(org);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ type: 'list', totalCount: 3, paginationMeta: { limit: 20, offset: 0 } });
    expect(names(res)).toEqual(['Three', 'Two', 'One']);
    expect(names(await list(org, '?sortDirection=asc'))).toEqual(['One', 'Two', 'Three']);
    expect((await list(org, '?limit=0')).json).toMatchObject({ totalCount: 3, data: [], paginationMeta: { limit: 0, offset: 0 } });
    expect(names(await list(org, '?limit=2&offset=1'))).toEqual(['Two', 'One']);
    expect((await list(org, '?offset=3')).json).toMatchObject({ totalCount: 3, data: [], paginationMeta: { limit: 20, offset: 3 } });
    expect((await list(org, '?limit=100')).json.data).toHaveLength(3);
    for (const q of ['?limit=101', '?offset=-1', '?sortBy=name', `?search=${'s'.repeat(256)}`, '?updatedTo=soon', '?status=active']) {
      const bad = await list(org, q);
      expect(bad.status, q).toBe(400);
      expect(bad.json.errorCode).toBe('request.invalid_query');
    }
  });

  it('sorts by updatedAt in both directions', async () => {
    const org = await organizationAccount();
    const a = await orgProduct(org, { name: 'A' });
    await orgProduct(org, { name: 'B' });
    await orgProduct(org, { name: 'C' });
    await patch(org, a.id, { description: 'touched' });
    expect(names(await list(org, '?sortBy=updatedAt'))).toEqual(['A', 'C', 'B']);
    expect(names(await list(org, '?sortBy=updatedAt&sortDirection=asc'))).toEqual(['B', 'C', 'A']);
    expect(names(await list(org, '?sortBy=createdAt&sortDirection=asc'))).toEqual(['A', 'B', 'C']);
  });

  it('searches name and description case-insensitively, with totalCount of the matches', async () => {
    const org = await organizationAccount();
    await orgProduct(org, { name: 'Coffee Beans', description: 'Arabica' });
    await orgProduct(org, { name: 'Tea', description: 'Green LEAVES' });
    await orgProduct(org, { name: 'Mug' });
    expect(names(await list(org, '?search=COFFEE'))).toEqual(['Coffee Beans']);
    expect(names(await list(org, '?search=leaves'))).toEqual(['Tea']);
    const ea = await list(org, '?search=EA&sortDirection=asc');
    expect(names(ea)).toEqual(['Coffee Beans', 'Tea']);
    expect(ea.json.totalCount).toBe(2);
    expect((await list(org, '?search=%20tea%20')).json.totalCount).toBe(1);
  });

  it('filters on updatedFrom and updatedTo (inclusive) under both sorts', async () => {
    const org = await organizationAccount();
    await orgProduct(org, { name: 'Early' });
    const middle = await orgProduct(org, { name: 'Middle' });
    await orgProduct(org, { name: 'Late' });
    for (const sortBy of ['createdAt', 'updatedAt']) {
      expect(names(await list(org, `?sortBy=${sortBy}&sortDirection=asc&updatedFrom=${middle.updatedAt}`)), sortBy).toEqual(['Middle', 'Late']);
      expect(names(await list(org, `?sortBy=${sortBy}&sortDirection=asc&updatedTo=${middle.updatedAt}`)), sortBy).toEqual(['Early', 'Middle']);
      const one = await list(org, `?sortBy=${sortBy}&updatedFrom=${middle.updatedAt}&updatedTo=${middle.updatedAt}`);
      expect(names(one), sortBy).toEqual(['Middle']);
      expect(one.json.totalCount).toBe(1);
    }
    expect((await list(org, '?updatedFrom=2030-01-01T00:00:00Z&updatedTo=2020-01-01T00:00:00Z')).status).toBe(400);
  });

  it("lists only the calling organization's products", async () => {
    const [a, b] = await Promise.all([organizationAccount(), organizationAccount()]);
    await orgProduct(a, { name: 'Only A' });
    expect((await list(b)).json).toMatchObject({ totalCount: 0, data: [] });
  });
});

describe('merchant API: product list', () => {
  it('sees the products created on the organization face, with merchantId, images and paging', async () => {
    const org = await organizationAccount();
    const p = await orgProduct(org, { name: 'Shared', type: 'recurring' });
    const res = await merchantList(org);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: [{ ...Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'organizationId')), images: [], merchantId: org.organizationId }],
      pagination: { page: 1, limit: 20, totalCount: 1, totalPages: 1 },
    });
  });

  it('pages with page and limit, newest first', async () => {
    const org = await organizationAccount();
    for (const name of ['P1', 'P2', 'P3', 'P4', 'P5']) await orgProduct(org, { name });
    const first = await merchantList(org, '?limit=2');
    expect(names(first)).toEqual(['P5', 'P4']);
    expect(first.json.pagination).toEqual({ page: 1, limit: 2, totalCount: 5, totalPages: 3 });
    expect(names(await merchantList(org, '?limit=2&page=3'))).toEqual(['P1']);
    expect((await merchantList(org, '?limit=2&page=4')).json).toMatchObject({ data: [], pagination: { page: 4, totalCount: 5 } });
    expect((await merchantList(org, '?limit=100')).json.data).toHaveLength(5);
    for (const q of ['?page=0', '?limit=0', '?limit=101', '?page=x', '?status=deleted', '?type=weekly', '?dateRangeStart=today', '?sort=name']) {
      const bad = await merchantList(org, q);
      expect(bad.status, q).toBe(400);
      expect(bad.json).toMatchObject({ statusCode: 400, code: 'request.invalid_query' });
    }
  });

  it('filters by q, status, type and a creation date range', async () => {
    const org = await organizationAccount();
    const early = await orgProduct(org, { name: 'Early Bird', type: 'one-time' });
    const sub = await orgProduct(org, { name: 'Monthly Box', description: 'Subscription box', type: 'recurring' });
    const old = await orgProduct(org, { name: 'Retired', type: 'recurring' });
    await patch(org, old.id, { status: 'archived' });
    expect(names(await merchantList(org, '?q=bird'))).toEqual(['Early Bird']);
    expect(names(await merchantList(org, '?q=SUBSCRIPTION'))).toEqual(['Monthly Box']);
    expect(names(await merchantList(org, '?status=archived'))).toEqual(['Retired']);
    expect(names(await merchantList(org, '?status=active'))).toEqual(['Monthly Box', 'Early Bird']);
    expect(names(await merchantList(org, '?type=recurring'))).toEqual(['Retired', 'Monthly Box']);
    const recurringActive = await merchantList(org, '?type=recurring&status=active');
    expect(names(recurringActive)).toEqual(['Monthly Box']);
    expect(recurringActive.json.pagination.totalCount).toBe(1);
    expect(names(await merchantList(org, `?dateRangeStart=${sub.createdAt}`))).toEqual(['Retired', 'Monthly Box']);
    expect(names(await merchantList(org, `?dateRangeEnd=${sub.createdAt}`))).toEqual(['Monthly Box', 'Early Bird']);
    expect(names(await merchantList(org, `?dateRangeStart=${early.createdAt}&dateRangeEnd=${early.createdAt}`))).toEqual(['Early Bird']);
    expect((await merchantList(org, `?dateRangeStart=${sub.createdAt}&dateRangeEnd=${early.createdAt}`)).status).toBe(400);
  });

  it("refuses another merchant's list with 403", async () => {
    const org = await organizationAccount();
    const stranger = await rootMerchant('Stranger');
    await orgProduct(org);
    const res = await merchantList(org, '', stranger.apiKey);
    expect(res.status).toBe(403);
    expect(res.json.code).toBe('forbidden');
  });
});
