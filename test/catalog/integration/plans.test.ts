import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { getPlan as getStoredPlan, replacePlan } from '../../../shared/catalog/plans.repository.ts';
import { orgCall, organizationAccount, orgPath, orgPlan, orgProduct } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const plans = (org: Org) => `${orgPath(org.organizationId)}/plans`;
const create = (org: Org, body: Record<string, unknown>) => orgCall('POST', plans(org), { fullKey: org.fullKey, body });
const patch = (org: Org, id: string, body: Record<string, unknown>) => orgCall('PATCH', `${plans(org)}/${id}`, { fullKey: org.fullKey, body });
const get = (org: Org, id: string) => orgCall('GET', `${plans(org)}/${id}`, { fullKey: org.fullKey });
const list = (org: Org, query = '') => orgCall('GET', `${plans(org)}${query}`, { fullKey: org.fullKey });
const uniqueName = (prefix = 'Plan') => `${prefix} ${randomUUID().slice(0, 8)}`;

/** How many of the organization's plans have `text` in their name (any case). */
const countOf = async (org: Org, text: string) => (await list(org, `?search=${encodeURIComponent(text)}`)).json.totalCount as number;

/** Two organizations shared by the tests that do not count a whole list (each test names its own plans). */
let a: Org;
let b: Org;
/** A one-time and a recurring product of `a`. */
let oneTime: { id: string };
let recurring: { id: string };
beforeAll(async () => {
  [a, b] = await Promise.all([organizationAccount(), organizationAccount()]);
  [oneTime, recurring] = await Promise.all([orgProduct(a, { type: 'one-time' }), orgProduct(a, { type: 'recurring' })]);
});

const monthly = { unit: 'month', length: 1 };
const planBody = (overrides: Record<string, unknown> = {}) => ({
  name: uniqueName(),
  currency: 'USD',
  productId: oneTime.id,
  pricing: { price: 10, formula: 'fixed-fee' },
  ...overrides,
});

async function created(org: Org, body: Record<string, unknown>) {
  const res = await create(org, body);
  expect(res.status, res.text).toBe(201);
  return res.json.data as Record<string, any> & { id: string };
}

/** Expect a 400 with `errorCode` whose details name `field`, and that no plan named `name` exists. */
async function expectRefused(res: Awaited<ReturnType<typeof create>>, errorCode: string, field: string, name?: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.json.errorCode).toBe(errorCode);
  expect(res.json.details).toMatch(new RegExp(`^${field.replace(/\./g, '\\.')}`, 'm'));
  if (name) expect(await countOf(a, name)).toBe(0);
}

describe('plans: create and read', () => {
  it('creates a plan of a one-time product at revision 1 and reads it back in the object envelope', async () => {
    const name = uniqueName('Lifetime');
    const res = await create(a, {
      name,
      currency: 'USD',
      productId: oneTime.id,
      pricing: { price: 49.99, formula: 'fixed-fee' },
      description: 'Pay once',
      richDescription: '<p>Pay <b>once</b></p>',
      setup: { price: 5.5, approvalLink: 'https://shop.example/terms' },
    });
    expect(res.status).toBe(201);
    expect(res.json.type).toBe('object');
    const plan = res.json.data;
    expect(plan).toMatchObject({
      organizationId: a.organizationId,
      productId: oneTime.id,
      name,
      currency: 'USD',
      currencySign: '$',
      pricing: { price: 49.99, formula: 'fixed-fee' },
      setup: { price: 5.5, approvalLink: 'https://shop.example/terms' },
      description: 'Pay once',
      richDescription: '<p>Pay <b>once</b></p>',
      productOptions: {},
      recurringInterval: null,
      trial: null,
      isActive: true,
      isTrialOnly: false,
      revision: 1,
      customFields: {},
    });
    expect(plan.id).toMatch(/^plan_[0-9a-f]{32}$/);
    expect(plan.createdAt).toBe(plan.updatedAt);
    const read = await get(a, plan.id);
    expect(read.status).toBe(200);
    expect(read.json).toEqual({ type: 'object', data: plan });
  });

  it('creates a plan of a recurring product with its interval (prepaid by default), anchor and trial', async () => {
    const plan = await created(
      a,
      planBody({
        productId: recurring.id,
        currency: 'EUR',
        pricing: { price: 9, formula: 'fixed-fee' },
        isTrialOnly: true,
        recurringInterval: { unit: 'month', length: 3, periodAnchorInstruction: { method: 'day-of-month', day: 15 } },
        trial: { unit: 'day', length: 14 },
      }),
    );
    expect(plan).toMatchObject({
      currencySign: '€',
      setup: null,
      isTrialOnly: true,
      trial: { unit: 'day', length: 14 },
      recurringInterval: { unit: 'month', length: 3, billingTiming: 'prepaid', periodAnchorInstruction: { method: 'day-of-month', day: 15, time: '00:00' } },
    });
  });

  it('derives currencySign from the currency and refuses one in the body', async () => {
    const yen = await created(a, planBody({ currency: 'JPY', pricing: { price: 1000, formula: 'fixed-fee' } }));
    expect(yen.currencySign).toBe('¥');
    const name = uniqueName();
    await expectRefused(await create(a, planBody({ name, currencySign: '£' })), 'request.validation_failed', 'currencySign', name);
  });

  it("answers 404 for another organization's plan, an unknown id and a malformed id", async () => {
    const plan = await created(a, planBody());
    for (const res of [
      await get(b, plan.id),
      await patch(b, plan.id, { name: 'Taken over' }),
      await get(a, `plan_${'0'.repeat(32)}`),
      await get(a, 'plan_nope'),
      await patch(a, randomUUID(), { name: 'x' }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.json.errorCode).toBe('plan.not_found');
    }
    expect((await get(a, plan.id)).json.data).toEqual(plan);
  });

  it('refuses an account that is not linked to the organization with 403', async () => {
    const name = uniqueName();
    const res = await orgCall('POST', plans(a), { fullKey: b.fullKey, body: planBody({ name }) });
    expect(res.status).toBe(403);
    expect(res.json.errorCode).toBe('forbidden');
    expect(await countOf(a, name)).toBe(0);
  });
});

describe('plans: amounts and currency exponents', () => {
  it('refuses 10.001 USD with 400 and creates nothing', async () => {
    const name = uniqueName();
    await expectRefused(
      await create(a, planBody({ name, pricing: { price: 10.001, formula: 'fixed-fee' } })),
      'request.validation_failed',
      'pricing.price',
      name,
    );
  });

  it('takes 1000 JPY and refuses 10.5 JPY, for the price and the setup fee', async () => {
    const yen = await created(a, planBody({ currency: 'JPY', pricing: { price: 1000, formula: 'fixed-fee' }, setup: { price: 500 } }));
    expect(yen).toMatchObject({ pricing: { price: 1000 }, setup: { price: 500, approvalLink: null } });
    const name = uniqueName();
    await expectRefused(
      await create(a, planBody({ name, currency: 'JPY', pricing: { price: 10.5, formula: 'fixed-fee' } })),
      'request.validation_failed',
      'pricing.price',
      name,
    );
    await expectRefused(
      await create(a, planBody({ name, currency: 'JPY', pricing: { price: 10, formula: 'fixed-fee' }, setup: { price: 0.5 } })),
      'request.validation_failed',
      'setup.price',
      name,
    );
  });

  it('takes three decimals in BHD and a free plan', async () => {
    const bhd = await created(a, planBody({ currency: 'BHD', pricing: { price: 1.005, formula: 'fixed-fee' } }));
    expect(bhd.pricing.price).toBe(1.005);
    const free = await created(a, planBody({ pricing: { price: 0, formula: 'fixed-fee' } }));
    expect(free.pricing.price).toBe(0);
  });

  it("checks a changed price against the plan's own currency", async () => {
    const yen = await created(a, planBody({ currency: 'JPY', pricing: { price: 1000, formula: 'fixed-fee' } }));
    const res = await patch(a, yen.id, { pricing: { price: 10.5 } });
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('request.validation_failed');
    expect(res.json.details).toMatch(/^pricing\.price/m);
    expect((await get(a, yen.id)).json.data).toEqual(yen);
    const ok = await patch(a, yen.id, { pricing: { price: 1200 } });
    expect(ok.json.data).toMatchObject({ pricing: { price: 1200, formula: 'fixed-fee' }, revision: 2 });
  });

  it.each([
    ['a negative price', { pricing: { price: -1, formula: 'fixed-fee' } }, 'pricing.price'],
    ['a price as a string', { pricing: { price: '10', formula: 'fixed-fee' } }, 'pricing.price'],
    ['an unknown formula', { pricing: { price: 10, formula: 'tiered' } }, 'pricing.formula'],
    ['no formula', { pricing: { price: 10 } }, 'pricing.formula'],
    ['an unknown currency', { currency: 'XYZ' }, 'currency'],
    ['a lowercase currency', { currency: 'usd' }, 'currency'],
    ['a setup link that is not https', { setup: { price: 1, approvalLink: 'http://shop.example' } }, 'setup.approvalLink'],
    ['a name of 256 characters', { name: 'n'.repeat(256) }, 'name'],
    ['a malformed product id', { productId: 'nope' }, 'productId'],
    ['a revision', { revision: 5 }, 'revision'],
  ])('refuses %s with 400', async (_, overrides, field) => {
    const res = await create(a, planBody(overrides));
    await expectRefused(res, 'request.validation_failed', field);
  });
});

describe('plans: recurring interval by product type', () => {
  it("refuses a recurring product's plan without an interval, and a one-time product's plan with one or with a trial", async () => {
    const name = uniqueName();
    await expectRefused(await create(a, planBody({ name, productId: recurring.id })), 'plan.invalid_for_product', 'recurringInterval', name);
    await expectRefused(
      await create(a, planBody({ name, productId: oneTime.id, recurringInterval: monthly })),
      'plan.invalid_for_product',
      'recurringInterval',
      name,
    );
    await expectRefused(
      await create(a, planBody({ name, productId: oneTime.id, trial: { unit: 'day', length: 7 } })),
      'plan.invalid_for_product',
      'trial',
      name,
    );
  });

  it('refuses a trial-only plan without a trial, and an anchor that does not fit the unit', async () => {
    const name = uniqueName();
    await expectRefused(
      await create(a, planBody({ name, productId: recurring.id, recurringInterval: monthly, isTrialOnly: true })),
      'plan.invalid_for_product',
      'isTrialOnly',
      name,
    );
    await expectRefused(
      await create(
        a,
        planBody({
          name,
          productId: recurring.id,
          recurringInterval: { unit: 'week', length: 1, periodAnchorInstruction: { method: 'day-of-month', day: 1 } },
        }),
      ),
      'plan.invalid_for_product',
      'recurringInterval.periodAnchorInstruction.method',
      name,
    );
  });

  it('takes intervals up to three years and trials up to two, and refuses one more', async () => {
    const longest = await created(
      a,
      planBody({ productId: recurring.id, recurringInterval: { unit: 'month', length: 36 }, trial: { unit: 'year', length: 2 } }),
    );
    expect(longest.recurringInterval).toMatchObject({ unit: 'month', length: 36 });
    await created(a, planBody({ productId: recurring.id, recurringInterval: { unit: 'day', length: 1095 } }));
    await created(
      a,
      planBody({
        productId: recurring.id,
        recurringInterval: { unit: 'week', length: 1, periodAnchorInstruction: { method: 'day-of-week', day: 7, time: '23:59' } },
      }),
    );
    const name = uniqueName();
    for (const [body, field] of [
      [{ recurringInterval: { unit: 'month', length: 37 } }, 'recurringInterval.length'],
      [{ recurringInterval: { unit: 'year', length: 4 } }, 'recurringInterval.length'],
      [{ recurringInterval: { unit: 'day', length: 0 } }, 'recurringInterval.length'],
      [{ recurringInterval: { unit: 'day', length: 1.5 } }, 'recurringInterval.length'],
      [{ recurringInterval: { unit: 'fortnight', length: 1 } }, 'recurringInterval.unit'],
      [{ recurringInterval: { unit: 'month', length: 1, billingTiming: 'postpaid' } }, 'recurringInterval.billingTiming'],
      [
        { recurringInterval: { unit: 'month', length: 1, periodAnchorInstruction: { method: 'day-of-month', day: 32 } } },
        'recurringInterval.periodAnchorInstruction.day',
      ],
      [
        { recurringInterval: { unit: 'week', length: 1, periodAnchorInstruction: { method: 'day-of-week', day: 8 } } },
        'recurringInterval.periodAnchorInstruction.day',
      ],
      [
        { recurringInterval: { unit: 'month', length: 1, periodAnchorInstruction: { method: 'day-of-month', day: 1, time: '24:00' } } },
        'recurringInterval.periodAnchorInstruction.time',
      ],
      [{ recurringInterval: monthly, trial: { unit: 'day', length: 731 } }, 'trial.length'],
    ] as const) {
      await expectRefused(await create(a, planBody({ name, productId: recurring.id, ...body })), 'request.validation_failed', field, name);
    }
  });
});

describe('plans: the product', () => {
  it('refuses a product of another organization or an unknown one with 404, and counts no plan on it', async () => {
    const foreign = await orgProduct(b);
    const name = uniqueName();
    for (const productId of [foreign.id, `prod_${'0'.repeat(32)}`]) {
      const res = await create(a, planBody({ name, productId }));
      expect(res.status).toBe(404);
      expect(res.json.errorCode).toBe('product.not_found');
    }
    expect(await countOf(a, name)).toBe(0);
    // No plan was counted on the foreign product: its owner can still delete it outright.
    const removed = await orgCall('DELETE', `${orgPath(b.organizationId)}/products/${foreign.id}`, { fullKey: b.fullKey });
    expect(removed.json).toEqual({ success: true });
  });

  it('refuses an archived product with 422', async () => {
    const product = await orgProduct(a);
    await orgPlan(a, {}, { productId: product.id });
    const archived = await orgCall('DELETE', `${orgPath(a.organizationId)}/products/${product.id}`, { fullKey: a.fullKey });
    expect(archived.json.data.status).toBe('archived');
    const name = uniqueName();
    const res = await create(a, planBody({ name, productId: product.id }));
    expect(res.status).toBe(422);
    expect(res.json.errorCode).toBe('plan.product_archived');
    expect(await countOf(a, name)).toBe(0);
  });

  it('counts the plan on its product, so the product is archived rather than deleted', async () => {
    const product = await orgProduct(a);
    await created(a, planBody({ productId: product.id }));
    const removed = await orgCall('DELETE', `${orgPath(a.organizationId)}/products/${product.id}`, { fullKey: a.fullKey });
    expect(removed.status).toBe(200);
    expect(removed.json.data).toMatchObject({ id: product.id, status: 'archived' });
  });

  it("takes productOptions that name the product's options, and refuses others", async () => {
    const product = await orgProduct(a, { options: ['size', 'color'] });
    const plan = await created(a, planBody({ productId: product.id, productOptions: { size: 'L', color: 'blue' } }));
    expect(plan.productOptions).toEqual({ size: 'L', color: 'blue' });
    const name = uniqueName();
    await expectRefused(
      await create(a, planBody({ name, productId: product.id, productOptions: { weight: 3 } })),
      'plan.invalid_for_product',
      'productOptions.weight',
      name,
    );
    const res = await patch(a, plan.id, { productOptions: { flavour: 'mint' } });
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('plan.invalid_for_product');
    const changed = await patch(a, plan.id, { productOptions: { size: 'S' } });
    expect(changed.json.data.productOptions).toEqual({ size: 'S' });
  });
});

describe('plans: custom fields', () => {
  let org: Org;
  let product: { id: string };
  beforeAll(async () => {
    org = await organizationAccount();
    product = await orgProduct(org);
    const define = (name: string, typeSchema: Record<string, unknown>) =>
      orgCall('POST', `${orgPath(org.organizationId)}/custom-fields`, {
        fullKey: org.fullKey,
        body: { name, resource: 'plans', description: `${name} of the plan`, typeSchema },
      });
    for (const res of await Promise.all([
      define('seats', { type: 'number' }),
      define('tier', { type: 'enum', additionalSchema: { allowedValues: ['basic', 'pro'], default: 'basic' } }),
    ]))
      expect(res.status, res.text).toBe(201);
  });

  it('stores valid values with defaults applied', async () => {
    const plan = await created(org, planBody({ productId: product.id, customFields: { seats: 5 } }));
    expect(plan.customFields).toEqual({ seats: 5, tier: 'basic' });
  });

  it.each([
    ['a value of the wrong type', { seats: 'five' }, 'customFields.seats'],
    ['a value outside the allowed values', { tier: 'gold' }, 'customFields.tier'],
    ['a field that is not defined for plans', { colour: 'red' }, 'customFields.colour'],
  ])('refuses %s with 400 and creates nothing', async (_, customFields, field) => {
    const name = uniqueName();
    const res = await create(org, planBody({ name, productId: product.id, customFields }));
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('custom_field.invalid');
    expect(res.json.message).toContain(field);
    expect(await countOf(org, name)).toBe(0);
  });

  it('merges values on update and refuses an invalid one without changing the plan', async () => {
    const plan = await created(org, planBody({ productId: product.id, customFields: { seats: 5 } }));
    const merged = await patch(org, plan.id, { customFields: { tier: 'pro' } });
    expect(merged.status).toBe(200);
    expect(merged.json.data.customFields).toEqual({ seats: 5, tier: 'pro' });
    const refused = await patch(org, plan.id, { customFields: { seats: 'many' } });
    expect(refused.status).toBe(400);
    expect(refused.json.errorCode).toBe('custom_field.invalid');
    expect((await get(org, plan.id)).json.data).toEqual(merged.json.data);
  });
});

describe('plans: update and revisions', () => {
  it('changes the given fields, adds one to the revision and moves updatedAt', async () => {
    const plan = await created(a, planBody({ productId: recurring.id, recurringInterval: monthly }));
    const res = await patch(a, plan.id, {
      name: 'Renamed',
      description: 'Now with more',
      isActive: false,
      pricing: { price: 12.5 },
      recurringInterval: { unit: 'year', length: 1 },
      trial: { unit: 'week', length: 2 },
      setup: { price: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.json.type).toBe('object');
    expect(res.json.data).toMatchObject({
      ...plan,
      name: 'Renamed',
      description: 'Now with more',
      isActive: false,
      pricing: { price: 12.5, formula: 'fixed-fee' },
      recurringInterval: { unit: 'year', length: 1, billingTiming: 'prepaid', periodAnchorInstruction: null },
      trial: { unit: 'week', length: 2 },
      setup: { price: 3, approvalLink: null },
      revision: 2,
      updatedAt: expect.any(String),
    });
    expect(res.json.data.updatedAt > plan.updatedAt).toBe(true);
    expect((await get(a, plan.id)).json.data).toEqual(res.json.data);

    const cleared = await patch(a, plan.id, { trial: null, setup: null, description: null });
    expect(cleared.json.data).toMatchObject({ trial: null, setup: null, description: null, revision: 3 });
  });

  it.each([
    ['currency', { currency: 'EUR' }],
    ['productId', { productId: `prod_${'1'.repeat(32)}` }],
    ['currencySign', { currencySign: '€' }],
  ])('refuses a change of %s with 400 and leaves the plan and its revision alone', async (field, body) => {
    const plan = await created(a, planBody());
    const res = await patch(a, plan.id, { name: 'Changed', ...body });
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('request.validation_failed');
    expect(res.json.details).toMatch(new RegExp(`^${field}: `, 'm'));
    expect((await get(a, plan.id)).json.data).toEqual(plan);
  });

  it('refuses an empty change, and an interval the product type does not allow', async () => {
    const plan = await created(a, planBody({ productId: recurring.id, recurringInterval: monthly }));
    expect((await patch(a, plan.id, {})).status).toBe(400);
    expect((await patch(a, plan.id, { revision: 1 })).status).toBe(400);
    const noInterval = await patch(a, plan.id, { recurringInterval: null });
    expect(noInterval.status).toBe(400);
    expect(noInterval.json.errorCode).toBe('plan.invalid_for_product');
    const once = await created(a, planBody());
    const withInterval = await patch(a, once.id, { recurringInterval: monthly });
    expect(withInterval.json.errorCode).toBe('plan.invalid_for_product');
    expect((await get(a, plan.id)).json.data.revision).toBe(1);
    expect((await get(a, once.id)).json.data.revision).toBe(1);
  });

  it('of two concurrent updates from the same revision exactly one wins with revision 2, the other gets 409, and the next update makes revision 3', async () => {
    const plan = await created(a, planBody());
    const answers = await Promise.all([
      patch(a, plan.id, { name: 'First', revision: plan.revision }),
      patch(a, plan.id, { name: 'Second', revision: plan.revision }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = answers.find((r) => r.status === 200)!;
    const loser = answers.find((r) => r.status === 409)!;
    expect(winner.json.data.revision).toBe(2);
    expect(loser.json.errorCode).toBe('plan.revision_conflict');
    expect((await get(a, plan.id)).json.data).toEqual(winner.json.data);

    const next = await patch(a, plan.id, { isActive: false });
    expect(next.status).toBe(200);
    expect(next.json.data).toMatchObject({ revision: 3, name: winner.json.data.name, isActive: false });
  });

  it('never loses a concurrent update: each 200 has its own revision, the others get 409, and the final revision counts the winners', async () => {
    const plan = await created(a, planBody());
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => patch(a, plan.id, { name: `Writer ${i}` })));
    const won = answers.filter((r) => r.status === 200);
    const lost = answers.filter((r) => r.status !== 200);
    expect(lost.every((r) => r.status === 409 && r.json.errorCode === 'plan.revision_conflict')).toBe(true);
    const revisions = won.map((r) => r.json.data.revision as number).sort((x, y) => x - y);
    expect(revisions).toEqual(Array.from({ length: won.length }, (_, i) => i + 2));
    const stored = (await get(a, plan.id)).json.data;
    expect(stored.revision).toBe(1 + won.length);
    expect(stored.name).toBe(won.find((r) => r.json.data.revision === stored.revision)!.json.data.name);
  });

  it('refuses, in the table itself, a write based on a revision that is no longer current', async () => {
    const plan = await created(a, planBody());
    const read = (await getStoredPlan(a.organizationId, plan.id))!;
    expect(await replacePlan({ ...read, name: 'One', revision: 2 }, read.revision)).toBe(true);
    expect(await replacePlan({ ...read, name: 'Two', revision: 2 }, read.revision)).toBe(false);
    expect((await get(a, plan.id)).json.data).toMatchObject({ name: 'One', revision: 2 });
  });

  it('refuses an update that names a revision other than the current one with 409', async () => {
    const plan = await created(a, planBody());
    const stale = await patch(a, plan.id, { name: 'Stale', revision: 2 });
    expect(stale.status).toBe(409);
    expect(stale.json.errorCode).toBe('plan.revision_conflict');
    expect((await get(a, plan.id)).json.data).toEqual(plan);
    const current = await patch(a, plan.id, { name: 'Fresh', revision: 1 });
    expect(current.json.data).toMatchObject({ name: 'Fresh', revision: 2 });
  });
});

describe('plans: list', () => {
  let shared: Org;
  beforeAll(async () => {
    shared = await organizationAccount();
  });

  async function orgWithPlans(n: number) {
    const org = await organizationAccount();
    const product = await orgProduct(org);
    const tag = randomUUID().slice(0, 6);
    const made: Array<Record<string, any>> = [];
    for (let i = 0; i < n; i++) {
      made.push(await created(org, planBody({ name: `${i % 2 ? 'Gold' : 'Silver'} ${tag} ${i}`, productId: product.id })));
    }
    return { org, made, tag };
  }

  it('pages newest first by default with totalCount and paginationMeta', async () => {
    const { org, made } = await orgWithPlans(5);
    const first = await list(org, '?limit=2');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ type: 'list', totalCount: 5, paginationMeta: { limit: 2, offset: 0 } });
    expect(first.json.data.map((p: { id: string }) => p.id)).toEqual([made[4]!.id, made[3]!.id]);
    expect(first.json.data[0]).toEqual(made[4]);
    const last = await list(org, '?limit=2&offset=4');
    expect(last.json.data.map((p: { id: string }) => p.id)).toEqual([made[0]!.id]);
    const beyond = await list(org, '?offset=10');
    expect(beyond.json).toMatchObject({ totalCount: 5, data: [], paginationMeta: { limit: 20, offset: 10 } });
    const asc = await list(org, '?sortDirection=asc&sortBy=createdAt');
    expect(asc.json.data.map((p: { id: string }) => p.id)).toEqual(made.map((p) => p.id));
  });

  it('sorts by updatedAt, searches names regardless of case, and filters by updatedFrom/updatedTo', async () => {
    const { org, made, tag } = await orgWithPlans(4);
    const touched = await patch(org, made[0]!.id, { description: 'touched' });
    const byUpdate = await list(org, '?sortBy=updatedAt');
    expect(byUpdate.json.data.map((p: { id: string }) => p.id)).toEqual([made[0]!.id, made[3]!.id, made[2]!.id, made[1]!.id]);

    const gold = await list(org, `?search=${encodeURIComponent(`GOLD ${tag}`)}&sortDirection=asc`);
    expect(gold.json.totalCount).toBe(2);
    expect(gold.json.data.map((p: { id: string }) => p.id)).toEqual([made[1]!.id, made[3]!.id]);

    const recent = await list(org, `?updatedFrom=${encodeURIComponent(touched.json.data.updatedAt)}`);
    expect(recent.json.data.map((p: { id: string }) => p.id)).toEqual([made[0]!.id]);
    const older = await list(
      org,
      `?updatedFrom=${encodeURIComponent(made[1]!.updatedAt)}&updatedTo=${encodeURIComponent(made[2]!.updatedAt)}&sortBy=updatedAt&sortDirection=asc`,
    );
    expect(older.json).toMatchObject({ totalCount: 2 });
    expect(older.json.data.map((p: { id: string }) => p.id)).toEqual([made[1]!.id, made[2]!.id]);
  });

  it.each([
    ['limit=101'],
    ['limit=-1'],
    ['offset=x'],
    ['sortBy=name'],
    ['sortDirection=sideways'],
    ['updatedTo=soon'],
    ['updatedFrom=2025-02-01T00:00:00Z&updatedTo=2025-01-01T00:00:00Z'],
    ['currency=USD'],
  ])('refuses the query %s with 400', async (query) => {
    const res = await list(shared, `?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('request.invalid_query');
  });
});
