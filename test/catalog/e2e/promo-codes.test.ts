import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { orgCall, organizationAccount, orgPath, orgPlan, orgProduct } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const promos = (org: Org) => `${orgPath(org.organizationId)}/promo-codes`;
const uniqueCode = (prefix = 'CODE') => `${prefix}-${randomUUID().slice(0, 8)}`;

const create = (org: Org, body: Record<string, unknown>) => orgCall('POST', promos(org), { fullKey: org.fullKey, body });
const patch = (org: Org, id: string, body: Record<string, unknown>) => orgCall('PATCH', `${promos(org)}/${id}`, { fullKey: org.fullKey, body });
const get = (org: Org, id: string) => orgCall('GET', `${promos(org)}/${id}`, { fullKey: org.fullKey });
const list = (org: Org, query = '') => orgCall('GET', `${promos(org)}${query}`, { fullKey: org.fullKey });

/** How many of the organization's codes contain `text` (any case). */
const countOf = async (org: Org, text: string) => (await list(org, `?search=${encodeURIComponent(text)}`)).json.totalCount as number;

/** Two organizations shared by the tests that do not count a whole list (each test uses its own codes and plans). */
let a: Org;
let b: Org;
beforeAll(async () => {
  [a, b] = await Promise.all([organizationAccount(), organizationAccount()]);
});

async function created(org: Org, body: Record<string, unknown>) {
  const res = await create(org, body);
  expect(res.status, res.text).toBe(201);
  return res.json.data as Record<string, any> & { id: string };
}

describe('promo codes: create and read', () => {
  it('creates a percent-off code with defaults and reads it back in the object envelope', async () => {
    const org = a;
    const res = await create(org, { code: 'Summer-25', percentOff: 12.5 });
    expect(res.status).toBe(201);
    expect(res.json.type).toBe('object');
    const promo = res.json.data;
    expect(promo).toMatchObject({
      organizationId: org.organizationId,
      code: 'Summer-25',
      percentOff: 12.5,
      amountOff: null,
      currency: null,
      planIds: [],
      expiresAt: null,
      maxRedemptions: null,
      timesRedeemed: 0,
      isActive: true,
    });
    expect(promo.id).toMatch(/^promo_[0-9a-f]{32}$/);
    expect(promo.createdAt).toBe(promo.updatedAt);

    const read = await get(org, promo.id);
    expect(read.status).toBe(200);
    expect(read.json).toEqual({ type: 'object', data: promo });
  });

  it('creates an amount-off code in major units of its currency, with an expiry, a cap and plans', async () => {
    const org = a;
    const plan = await orgPlan(org, { currency: 'EUR', pricing: { price: 20, formula: 'fixed-fee' } });
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const promo = await created(org, {
      code: uniqueCode(),
      amountOff: 5.25,
      currency: 'EUR',
      planIds: [plan.id],
      expiresAt,
      maxRedemptions: 100,
      isActive: false,
    });
    expect(promo).toMatchObject({ percentOff: null, amountOff: 5.25, currency: 'EUR', planIds: [plan.id], expiresAt, maxRedemptions: 100, isActive: false });
  });

  it("checks amountOff against its currency's exponent: 10.001 USD and 10.5 JPY are refused, 1000 JPY is fine", async () => {
    const org = a;
    const code = uniqueCode('YEN');
    const usd = await create(org, { code, amountOff: 10.001, currency: 'USD' });
    expect(usd.status).toBe(400);
    expect(usd.json.errorCode).toBe('request.validation_failed');
    expect(usd.json.details).toContain('amountOff');
    const yenFraction = await create(org, { code, amountOff: 10.5, currency: 'JPY' });
    expect(yenFraction.status).toBe(400);
    expect(yenFraction.json.details).toContain('amountOff');
    expect(await countOf(org, code)).toBe(0);

    const yen = await created(org, { code, amountOff: 1000, currency: 'JPY' });
    expect(yen).toMatchObject({ amountOff: 1000, currency: 'JPY' });
  });

  it("answers 404 for another organization's code, an unknown id and a malformed id", async () => {
    const promo = await created(a, { code: uniqueCode(), percentOff: 10 });
    for (const res of [
      await get(b, promo.id),
      await patch(b, promo.id, { isActive: false }),
      await get(a, `promo_${'0'.repeat(32)}`),
      await get(a, 'not-an-id'),
      await patch(a, 'not-an-id', { isActive: false }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.json.errorCode).toBe('promo_code.not_found');
    }
    expect((await get(a, promo.id)).json.data.isActive).toBe(true);
  });

  it('refuses an account that is not linked to the organization with 403', async () => {
    const code = uniqueCode();
    const res = await orgCall('POST', promos(a), { fullKey: b.fullKey, body: { code, percentOff: 10 } });
    expect(res.status).toBe(403);
    expect(res.json.errorCode).toBe('forbidden');
    expect(await countOf(a, code)).toBe(0);
  });
});

describe('promo codes: uniqueness of the code', () => {
  it('refuses a code the organization already has in another case with 409, and leaves other organizations free to use it', async () => {
    const code = uniqueCode('Spring');
    await created(a, { code, percentOff: 10 });
    const again = await create(a, { code: code.toLowerCase(), amountOff: 1, currency: 'USD' });
    expect(again.status).toBe(409);
    expect(again.json.errorCode).toBe('promo_code.code_taken');
    expect(await countOf(a, code)).toBe(1);
    await created(b, { code, percentOff: 10 });
  });

  it('of two concurrent creates of SUMMER and summer, exactly one succeeds and the other gets 409', async () => {
    const org = a;
    const suffix = randomUUID().slice(0, 8);
    const answers = await Promise.all([
      create(org, { code: `SUMMER${suffix.toUpperCase()}`, percentOff: 10 }),
      create(org, { code: `summer${suffix.toLowerCase()}`, percentOff: 20 }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.status === 409)!.json.errorCode).toBe('promo_code.code_taken');
    const listed = await list(org, `?search=summer${suffix}`);
    expect(listed.json.totalCount).toBe(1);
    expect(listed.json.data[0].id).toBe(answers.find((r) => r.status === 201)!.json.data.id);
  });
});

describe('promo codes: validation', () => {
  let shared: Org;
  beforeAll(async () => {
    shared = await organizationAccount();
  });

  it.each([
    ['a code of 2 characters', { code: 'AB', percentOff: 10 }, 'code'],
    ['a code of 41 characters', { code: 'A'.repeat(41), percentOff: 10 }, 'code'],
    ['a code with a space', { code: 'SUMMER SALE', percentOff: 10 }, 'code'],
    ['a code with an accent', { code: 'ÉTÉ2025', percentOff: 10 }, 'code'],
    ['no discount', { code: 'NODISCOUNT' }, 'percentOff'],
    ['both discounts', { code: 'BOTH1', percentOff: 10, amountOff: 5, currency: 'USD' }, 'amountOff'],
    ['amountOff without currency', { code: 'NOCUR1', amountOff: 5 }, 'currency'],
    ['currency with percentOff', { code: 'CURPCT', percentOff: 5, currency: 'USD' }, 'currency'],
    ['percentOff 0', { code: 'ZERO1', percentOff: 0 }, 'percentOff'],
    ['percentOff 100.01', { code: 'OVER1', percentOff: 100.01 }, 'percentOff'],
    ['percentOff with three decimals', { code: 'DEC3', percentOff: 12.345 }, 'percentOff'],
    ['amountOff 0', { code: 'ZEROAMT', amountOff: 0, currency: 'USD' }, 'amountOff'],
    ['an unknown currency', { code: 'BADCUR', amountOff: 5, currency: 'XYZ' }, 'currency'],
    ['an expiry in the past', { code: 'PAST1', percentOff: 10, expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
    ['an expiry that is not a date-time', { code: 'BADDATE', percentOff: 10, expiresAt: 'tomorrow' }, 'expiresAt'],
    ['maxRedemptions 0', { code: 'MAX0', percentOff: 10, maxRedemptions: 0 }, 'maxRedemptions'],
    ['maxRedemptions 1.5', { code: 'MAXF', percentOff: 10, maxRedemptions: 1.5 }, 'maxRedemptions'],
    ['a malformed plan id', { code: 'BADPLAN', percentOff: 10, planIds: ['nope'] }, 'planIds'],
    ['a repeated plan id', { code: 'REPEAT', percentOff: 10, planIds: [`plan_${'1'.repeat(32)}`, `plan_${'1'.repeat(32)}`] }, 'planIds'],
    ['51 plan ids', { code: 'MANY', percentOff: 10, planIds: Array.from({ length: 51 }, (_, i) => `plan_${i.toString(16).padStart(32, '0')}`) }, 'planIds'],
    ['timesRedeemed', { code: 'REDEEM', percentOff: 10, timesRedeemed: 5 }, 'timesRedeemed'],
  ])('refuses %s with 400 naming the field, and creates nothing', async (_, body, field) => {
    const org = shared;
    const res = await create(org, body);
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('request.validation_failed');
    expect(res.json.details).toMatch(new RegExp(`^${field}`, 'm'));
    expect((await list(org)).json.totalCount).toBe(0);
  });

  it('takes codes of 3 and 40 characters, percentOff 100 and 0.01, and 50 plan ids', async () => {
    const org = b;
    await created(org, { code: 'ABC', percentOff: 100 });
    await created(org, { code: 'B'.repeat(40), percentOff: 0.01 });
    const products = await Promise.all(Array.from({ length: 5 }, () => orgProduct(org)));
    const planIds: string[] = [];
    for (let round = 0; round < 10; round++) {
      const plans = await Promise.all(products.map((p) => orgPlan(org, {}, { productId: p.id })));
      planIds.push(...plans.map((p) => p.id));
    }
    const fifty = await created(org, { code: uniqueCode(), percentOff: 10, planIds });
    expect(fifty.planIds).toHaveLength(50);
  });

  it('refuses plans of another organization and unknown plans with 422, and the code stays free', async () => {
    const [own, foreign] = await Promise.all([orgPlan(a), orgPlan(b)]);
    const code = uniqueCode();
    const res = await create(a, { code, percentOff: 10, planIds: [own.id, foreign.id] });
    expect(res.status).toBe(422);
    expect(res.json.errorCode).toBe('promo_code.plan_not_found');
    expect(res.json.details).toContain(foreign.id);
    expect(res.json.details).not.toContain(own.id);
    const unknown = await create(a, { code, percentOff: 10, planIds: [`plan_${'f'.repeat(32)}`] });
    expect(unknown.status).toBe(422);
    expect(unknown.json.errorCode).toBe('promo_code.plan_not_found');
    expect(await countOf(a, code)).toBe(0);
    await created(a, { code, percentOff: 10, planIds: [own.id] });
  });

  it('refuses an amount-off code for a plan in another currency with 422; percent-off codes take any plan', async () => {
    const org = a;
    const code = uniqueCode();
    const [usd, eur] = await Promise.all([orgPlan(org, { currency: 'USD' }), orgPlan(org, { currency: 'EUR' })]);
    const res = await create(org, { code, amountOff: 2, currency: 'USD', planIds: [usd.id, eur.id] });
    expect(res.status).toBe(422);
    expect(res.json.errorCode).toBe('promo_code.currency_mismatch');
    expect(res.json.details).toContain(eur.id);
    expect(await countOf(org, code)).toBe(0);
    await created(org, { code: uniqueCode(), percentOff: 15, planIds: [usd.id, eur.id] });
  });

  it('refuses a 100 % code listing a plan sold once without a setup fee with 422: checkout could never take its price of nothing', async () => {
    const org = a;
    const code = uniqueCode('FREE');
    const [once, onceWithSetup, recurring] = await Promise.all([
      orgPlan(org),
      orgPlan(org, { setup: { price: 5 } }),
      orgPlan(org, {}, { productType: 'recurring' }),
    ]);
    const res = await create(org, { code, percentOff: 100, planIds: [recurring.id, once.id, onceWithSetup.id] });
    expect(res.status, res.text).toBe(422);
    expect(res.json.errorCode).toBe('promo_code.nothing_to_charge');
    expect(res.json.details).toContain(once.id);
    expect(res.json.details).not.toContain(recurring.id);
    expect(res.json.details).not.toContain(onceWithSetup.id);
    expect(await countOf(org, code)).toBe(0);
    // Something is left to pay: a recurring plan (its first period may be free), a setup fee, a discount below 100 %,
    // an amount off (a larger quantity can leave something to pay; checkout refuses it where nothing is left), any plan.
    await created(org, { code, percentOff: 100, planIds: [recurring.id, onceWithSetup.id] });
    await created(org, { code: uniqueCode(), percentOff: 99.99, planIds: [once.id] });
    await created(org, { code: uniqueCode(), amountOff: 10, currency: 'USD', planIds: [once.id] });
    await created(org, { code: uniqueCode(), percentOff: 100 });
  });
});

describe('promo codes: update', () => {
  it('changes isActive, expiresAt, maxRedemptions and planIds, and keeps the rest', async () => {
    const org = a;
    const plan = await orgPlan(org);
    const promo = await created(org, { code: uniqueCode(), percentOff: 10, maxRedemptions: 5 });
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await patch(org, promo.id, { isActive: false, expiresAt, maxRedemptions: 50, planIds: [plan.id] });
    expect(res.status).toBe(200);
    expect(res.json.type).toBe('object');
    expect(res.json.data).toMatchObject({ ...promo, isActive: false, expiresAt, maxRedemptions: 50, planIds: [plan.id], updatedAt: expect.any(String) });
    expect(res.json.data.updatedAt > promo.updatedAt).toBe(true);
    expect((await get(org, promo.id)).json.data).toEqual(res.json.data);

    const cleared = await patch(org, promo.id, { expiresAt: null, maxRedemptions: null, planIds: [] });
    expect(cleared.status).toBe(200);
    expect(cleared.json.data).toMatchObject({ expiresAt: null, maxRedemptions: null, planIds: [], isActive: false });
  });

  it.each([
    ['code', { code: 'OTHER' }],
    ['percentOff', { percentOff: 50 }],
    ['amountOff', { amountOff: 5 }],
    ['currency', { currency: 'EUR' }],
    ['timesRedeemed', { timesRedeemed: 3 }],
  ])('refuses a change of %s with 400 and changes nothing', async (field, body) => {
    const org = a;
    const promo = await created(org, { code: uniqueCode(), percentOff: 10 });
    const res = await patch(org, promo.id, { isActive: false, ...body });
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('request.validation_failed');
    expect(res.json.details).toMatch(new RegExp(`^${field}`, 'm'));
    expect((await get(org, promo.id)).json.data).toEqual(promo);
  });

  it('refuses an empty change and an expiry in the past with 400', async () => {
    const org = a;
    const promo = await created(org, { code: uniqueCode(), percentOff: 10 });
    expect((await patch(org, promo.id, {})).status).toBe(400);
    const past = await patch(org, promo.id, { expiresAt: '2001-01-01T00:00:00.000Z' });
    expect(past.status).toBe(400);
    expect(past.json.details).toMatch(/^expiresAt/m);
    expect((await get(org, promo.id)).json.data).toEqual(promo);
  });

  it('refuses plans of another organization or currency with 422 and leaves the code as it was', async () => {
    const [foreign, eur, usd] = await Promise.all([orgPlan(b), orgPlan(a, { currency: 'EUR' }), orgPlan(a, { currency: 'USD' })]);
    const promo = await created(a, { code: uniqueCode(), amountOff: 1, currency: 'USD', planIds: [usd.id] });
    const notOurs = await patch(a, promo.id, { planIds: [foreign.id], isActive: false });
    expect(notOurs.status).toBe(422);
    expect(notOurs.json.errorCode).toBe('promo_code.plan_not_found');
    const otherCurrency = await patch(a, promo.id, { planIds: [usd.id, eur.id] });
    expect(otherCurrency.status).toBe(422);
    expect(otherCurrency.json.errorCode).toBe('promo_code.currency_mismatch');
    expect((await get(a, promo.id)).json.data).toEqual(promo);
  });

  it('refuses listing a plan sold once without a setup fee on a 100 % code with 422 and leaves the code as it was', async () => {
    const [once, recurring] = await Promise.all([orgPlan(a), orgPlan(a, {}, { productType: 'recurring' })]);
    const promo = await created(a, { code: uniqueCode('FREE'), percentOff: 100, planIds: [recurring.id] });
    const res = await patch(a, promo.id, { planIds: [recurring.id, once.id], isActive: false });
    expect(res.status, res.text).toBe(422);
    expect(res.json.errorCode).toBe('promo_code.nothing_to_charge');
    expect(res.json.details).toContain(once.id);
    expect((await get(a, promo.id)).json.data).toEqual(promo);
  });
});

describe('promo codes: list', () => {
  let shared: Org;
  beforeAll(async () => {
    shared = await organizationAccount();
  });

  async function orgWithCodes(n: number) {
    const org = await organizationAccount();
    const tag = randomUUID().slice(0, 6);
    const codes: Array<Record<string, any>> = [];
    for (let i = 0; i < n; i++) codes.push(await created(org, { code: `${i % 2 ? 'WINTER' : 'Autumn'}${tag}${i}`, percentOff: 5 + i }));
    return { org, codes, tag };
  }

  it('pages newest first by default with totalCount and paginationMeta', async () => {
    const { org, codes } = await orgWithCodes(5);
    const first = await list(org, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ type: 'list', totalCount: 5, paginationMeta: { limit: 2, offset: 0 } });
    expect(first.json.data.map((p: { id: string }) => p.id)).toEqual([codes[4]!.id, codes[3]!.id]);
    const last = await list(org, '?limit=2&offset=4');
    expect(last.json.data.map((p: { id: string }) => p.id)).toEqual([codes[0]!.id]);
    expect(last.json.paginationMeta).toEqual({ limit: 2, offset: 4 });
    const asc = await list(org, '?sortDirection=asc&limit=100');
    expect(asc.json.data.map((p: { id: string }) => p.id)).toEqual(codes.map((p) => p.id));
    const none = await list(org, '?limit=0');
    expect(none.json).toMatchObject({ totalCount: 5, data: [] });
  });

  it('sorts by updatedAt, searches codes regardless of case, and filters by updatedFrom/updatedTo', async () => {
    const { org, codes, tag } = await orgWithCodes(4);
    const touched = await patch(org, codes[0]!.id, { isActive: false });
    const byUpdate = await list(org, '?sortBy=updatedAt&sortDirection=desc');
    expect(byUpdate.json.data[0].id).toBe(codes[0]!.id);

    const search = await list(org, `?search=winter${tag}`);
    expect(search.json.totalCount).toBe(2);
    expect(search.json.data.map((p: { code: string }) => p.code).sort()).toEqual([codes[1]!.code, codes[3]!.code].sort());

    const from = encodeURIComponent(touched.json.data.updatedAt);
    const recent = await list(org, `?updatedFrom=${from}`);
    expect(recent.json.data.map((p: { id: string }) => p.id)).toEqual([codes[0]!.id]);
    const to = encodeURIComponent(codes[3]!.updatedAt);
    const older = await list(org, `?updatedTo=${to}&sortBy=updatedAt&sortDirection=asc`);
    expect(older.json.data.map((p: { id: string }) => p.id)).toEqual([codes[1]!.id, codes[2]!.id, codes[3]!.id]);
  });

  it.each([
    ['limit=101'],
    ['offset=-1'],
    ['sortBy=code'],
    ['sortDirection=up'],
    ['updatedFrom=yesterday'],
    ['updatedFrom=2025-02-01T00:00:00Z&updatedTo=2025-01-01T00:00:00Z'],
    ['status=active'],
  ])('refuses the query %s with 400', async (query) => {
    const res = await list(shared, `?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('request.invalid_query');
  });
});
