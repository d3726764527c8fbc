import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cancellationReasons, transactWrite } from '../../../shared/platform/db/transactions.ts';
import { getCustomer, putCustomers, recordCustomerPayment } from '../../../shared/customers/customers.repository.ts';
import { getMerchant } from '../../../shared/people/merchants.repository.ts';
import { newCustomerId, splitName, type Customer } from '../../../shared/customers/customers.rules.ts';
import { newCustomerForPayment } from '../../../shared/customers/customers.service.ts';
import { call, organizationAccount, orgCall, orgPath, rootMerchant, uniqueEmail, unlinkedAccount } from '../../support/fixtures.ts';
import { eventItemsOf } from '../../support/events.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const customers = (org: Org) => `${orgPath(org.organizationId)}/customers`;
const create = (org: Org, body: unknown) => orgCall('POST', customers(org), { fullKey: org.fullKey, body });
const get = (org: Org, id: string, query = '') => orgCall('GET', `${customers(org)}/${id}${query}`, { fullKey: org.fullKey });
const patch = (org: Org, id: string, body: unknown) => orgCall('PATCH', `${customers(org)}/${id}`, { fullKey: org.fullKey, body });
const list = (org: Org, query = '') => orgCall('GET', `${customers(org)}${query}`, { fullKey: org.fullKey });
const merchantList = (org: Org, query = '', key = org.merchantApiKey) =>
  call('GET', `/v1/public-api/merchants/${org.organizationId}/customers${query}`, { key });
const merchantGet = (org: Org, id: string, key = org.merchantApiKey) => call('GET', `/v1/public-api/merchants/${org.organizationId}/customers/${id}`, { key });

const created = async (org: Org, body: Record<string, unknown> = {}) => {
  const res = await create(org, { email: uniqueEmail('customer'), ...body });
  expect(res.status, res.text).toBe(201);
  return res.json.data as Record<string, any>;
};
const countOf = async (org: Org) => (await list(org, '?limit=0')).json.totalCount as number;
const ids = (res: { json: { data: Array<{ id: string }> } }) => res.json.data.map((c) => c.id);

// Two organizations shared by the tests of this file (each test makes its own customers), so the file stays fast.
let org: Org;
let other: Org;
beforeAll(async () => {
  [org, other] = await Promise.all([organizationAccount('Customers'), organizationAccount('Other')]);
});

describe('customers: create and read', () => {
  it('creates a customer from an e-mail alone with defaults, in the object envelope with 201, and reads it back', async () => {
    const email = uniqueEmail('Buyer');
    const res = await create(org, { email });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      type: 'object',
      data: {
        id: expect.stringMatching(/^cus_[0-9a-f]{32}$/),
        organizationId: org.organizationId,
        firstName: null,
        lastName: null,
        organization: null,
        email: email.toLowerCase(),
        phoneNumber: null,
        isEnhancedDueDiligenceRequired: false,
        primaryAddress: { customerAddress: null, dateOfBirth: null, jobTitle: null },
        tags: [],
        lifetimeRevenue: 0,
        lifetimeRevenueCurrency: 'USD',
        lifetimeRevenueByCurrency: {},
        lastPaymentTime: null,
        primaryPaymentInstrument: null,
        isTestData: true,
        createdAt: expect.any(String),
        updatedAt: res.json.data.createdAt,
      },
    });
    const read = await get(org, res.json.data.id);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(res.json);
  });

  it('keeps every field it is given', async () => {
    const body = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      organization: 'Analytical Engines Ltd',
      email: uniqueEmail('ada'),
      phoneNumber: '+44 794 61',
      isEnhancedDueDiligenceRequired: true,
      primaryAddress: {
        customerAddress: { address1: '12 St James Square', address2: 'Flat 2', country: 'GB', city: 'London', region: 'Greater London', zip: 'SW1Y 4JH' },
        dateOfBirth: '1915-12-10',
        jobTitle: 'Mathematician',
      },
    };
    const res = await create(org, body);
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ ...body, email: body.email.toLowerCase() });
    expect((await get(org, res.json.data.id)).json.data).toEqual(res.json.data);
  });

  it('accepts every length limit at its value and refuses one past it with 400, creating nothing', async () => {
    const address = (field: string, n: number) => ({ primaryAddress: { customerAddress: { [field]: 'a'.repeat(n) } } });
    const limits: Array<[string, number, (n: number) => Record<string, unknown>]> = [
      ['firstName', 45, (n) => ({ firstName: 'f'.repeat(n) })],
      ['lastName', 45, (n) => ({ lastName: 'l'.repeat(n) })],
      ['organization', 255, (n) => ({ organization: 'o'.repeat(n) })],
      ['phoneNumber', 10, (n) => ({ phoneNumber: '5'.repeat(n) })],
      ['email', 254, (n) => ({ email: `${'e'.repeat(n - '@example.com'.length)}@example.com` })],
      ['primaryAddress.customerAddress.address1', 255, (n) => address('address1', n)],
      ['primaryAddress.customerAddress.address2', 255, (n) => address('address2', n)],
      ['primaryAddress.customerAddress.city', 100, (n) => address('city', n)],
      ['primaryAddress.customerAddress.region', 100, (n) => address('region', n)],
      ['primaryAddress.customerAddress.zip', 20, (n) => address('zip', n)],
      ['primaryAddress.jobTitle', 100, (n) => ({ primaryAddress: { jobTitle: 'j'.repeat(n) } })],
    ];
    const before = await countOf(org);
    for (const [field, max, body] of limits) {
      const atLimit = await create(org, { email: uniqueEmail(), ...body(max) });
      expect(atLimit.status, `${field} at ${max}: ${atLimit.text}`).toBe(201);
      const past = await create(org, { email: uniqueEmail(), ...body(max + 1) });
      expect(past.status, `${field} at ${max + 1}`).toBe(400);
      expect(past.json.errorCode).toBe('request.validation_failed');
      expect(past.json.message).toContain(field);
    }
    // One customer per limit, none of the refused ones.
    expect(await countOf(org)).toBe(before + limits.length);
  });

  it('refuses a missing or malformed e-mail, a bad country, date or phone, a wrong type and an unknown field with 400, creating nothing', async () => {
    const before = await countOf(org);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{}, 'email'],
      [{ email: 'not-an-email' }, 'email'],
      [{ email: uniqueEmail(), primaryAddress: { customerAddress: { country: 'XX' } } }, 'primaryAddress.customerAddress.country'],
      [{ email: uniqueEmail(), primaryAddress: { customerAddress: { country: 'us' } } }, 'primaryAddress.customerAddress.country'],
      [{ email: uniqueEmail(), primaryAddress: { dateOfBirth: '2999-01-01' } }, 'primaryAddress.dateOfBirth'],
      [{ email: uniqueEmail(), primaryAddress: { dateOfBirth: '1990-02-30' } }, 'primaryAddress.dateOfBirth'],
      [{ email: uniqueEmail(), phoneNumber: 'call me' }, 'phoneNumber'],
      [{ email: uniqueEmail(), firstName: '   ' }, 'firstName'],
      [{ email: uniqueEmail(), isEnhancedDueDiligenceRequired: 'yes' }, 'isEnhancedDueDiligenceRequired'],
      [{ email: uniqueEmail(), tags: ['vip'] }, 'tags'],
      [{ email: uniqueEmail(), lifetimeRevenue: 10 }, 'lifetimeRevenue'],
    ];
    for (const [body, field] of bad) {
      const res = await create(org, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({ errorCode: 'request.validation_failed', statusCode: 400 });
      expect(res.json.message.startsWith(field), `${res.json.message} names ${field}`).toBe(true);
    }
    expect(await countOf(org)).toBe(before);
  });

  it("answers 404 customer.not_found for unknown and malformed ids and for another organization's customer", async () => {
    const theirs = await created(other);
    for (const id of [theirs.id, newCustomerId(), 'cus_nope', '..%2F..']) {
      const res = await get(org, id);
      expect(res.status, id).toBe(404);
      expect(res.json).toMatchObject({ errorCode: 'customer.not_found', statusCode: 404 });
    }
  });

  it('refuses an organization the key is not linked to with 403', async () => {
    const before = await countOf(other);
    const res = await orgCall('GET', customers(other), { fullKey: org.fullKey });
    expect(res.status).toBe(403);
    const post = await orgCall('POST', customers(other), { fullKey: org.fullKey, body: { email: uniqueEmail() } });
    expect(post.status).toBe(403);
    expect(await countOf(other)).toBe(before);
  });

  it('hides test data from a read with showTestData=false (every sandbox customer is test data)', async () => {
    const c = await created(org);
    expect((await get(org, c.id, '?showTestData=true')).status).toBe(200);
    const hidden = await get(org, c.id, '?showTestData=false');
    expect(hidden.status).toBe(404);
    expect(hidden.json.errorCode).toBe('customer.not_found');
    expect((await get(org, c.id, '?showTestData=maybe')).json.errorCode).toBe('request.invalid_query');
  });

  it('takes the addresses people have: an apostrophe, an internationalized domain or top-level domain in its xn-- form', async () => {
    const tag = randomUUID().slice(0, 8);
    for (const email of [`o'brien.${tag}@example.ie`, `${tag}@xn--mnchen-3ya.de`, `${tag}@example.xn--p1ai`]) {
      const res = await create(org, { email });
      expect(res.status, `${email}: ${res.text}`).toBe(201);
      expect(res.json.data.email).toBe(email);
    }
    // A payment's customer of such an address, with its customer.created event.
    const organization = (await getMerchant(org.organizationId))!;
    const email = `o'neill.${tag}@example.ie`;
    const { customer, items } = newCustomerForPayment(organization, email, { amountMinor: 100, currency: 'USD', at: new Date().toISOString() });
    await transactWrite([['customer', items]]);
    const events = (await eventItemsOf(org.organizationId)).filter((e) => (e.payload as { customerId?: string }).customerId === customer.id);
    expect(events.map((e) => e.payload)).toEqual([{ customerId: customer.id, email }]);
  });

  it('writes no customer.created event for a customer created through the API', async () => {
    const c = await created(org);
    const events = await eventItemsOf(org.organizationId);
    expect(events.filter((e) => (e.payload as { customerId?: string }).customerId === c.id)).toEqual([]);
  });
});

describe('customers: update', () => {
  it('changes only the given fields, clears a field given as null, and moves updatedAt', async () => {
    const c = await created(org, { firstName: 'Ada', lastName: 'Lovelace', organization: 'Engines', phoneNumber: '5550100' });
    const res = await patch(org, c.id, { organization: null, phoneNumber: '5550199', isEnhancedDueDiligenceRequired: true });
    expect(res.status).toBe(200);
    expect(res.json.type).toBe('object');
    expect(res.json.data).toEqual({
      ...c,
      organization: null,
      phoneNumber: '5550199',
      isEnhancedDueDiligenceRequired: true,
      updatedAt: expect.any(String),
    });
    expect(res.json.data.updatedAt >= c.updatedAt).toBe(true);
    expect((await get(org, c.id)).json).toEqual(res.json);
  });

  it('splits the deprecated name into firstName and lastName', async () => {
    const c = await created(org, { firstName: 'Someone', lastName: 'Else' });
    const cases: Array<[string, string, string | null]> = [
      ['Mary Ann Smith', 'Mary Ann', 'Smith'],
      ['  Grace   Brewster  Hopper ', 'Grace Brewster', 'Hopper'],
      ['Cher', 'Cher', null],
      [`${'a'.repeat(45)} ${'b'.repeat(45)}`, 'a'.repeat(45), 'b'.repeat(45)],
      [`${'a'.repeat(20)} ${'b'.repeat(20)} ${'c'.repeat(30)}`, `${'a'.repeat(20)} ${'b'.repeat(20)}`, 'c'.repeat(30)],
      // The last space would leave a first name of 61 characters: the split moves left.
      [`${'a'.repeat(30)} ${'b'.repeat(30)} ${'c'.repeat(10)}`, 'a'.repeat(30), `${'b'.repeat(30)} ${'c'.repeat(10)}`],
    ];
    for (const [name, firstName, lastName] of cases) {
      const res = await patch(org, c.id, { name });
      expect(res.status, name).toBe(200);
      expect(res.json.data).toMatchObject({ firstName, lastName });
    }
    expect(splitName('Mary Ann Smith')).toEqual({ firstName: 'Mary Ann', lastName: 'Smith' });
  });

  it('accepts a name of 91 characters and refuses 92 with 400; refuses a name no split fits with 400 customer.name_not_splittable', async () => {
    const c = await created(org, { firstName: 'Kept', lastName: 'Name' });
    expect((await patch(org, c.id, { name: `${'a'.repeat(45)} ${'b'.repeat(45)}` })).status).toBe(200);
    const restored = await patch(org, c.id, { firstName: 'Kept', lastName: 'Name' });
    expect(restored.status).toBe(200);
    const tooLong = await patch(org, c.id, { name: `${'a'.repeat(46)} ${'b'.repeat(45)}` });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.errorCode).toBe('request.validation_failed');
    expect(tooLong.json.message).toContain('name');
    const unsplittable = [
      'x'.repeat(46),
      `${'a'.repeat(50)} ${'b'.repeat(30)}`,
      `${'a'.repeat(10)} ${'b'.repeat(50)}`,
      `${'a'.repeat(20)} ${'b'.repeat(30)} ${'c'.repeat(30)}`,
    ];
    for (const name of unsplittable) {
      const res = await patch(org, c.id, { name });
      expect(res.status, name).toBe(400);
      expect(res.json.errorCode).toBe('customer.name_not_splittable');
    }
    const both = await patch(org, c.id, { name: 'Ada Lovelace', firstName: 'Ada' });
    expect(both.status).toBe(400);
    expect(both.json.message).toContain('name');
    expect((await get(org, c.id)).json.data).toMatchObject({ firstName: 'Kept', lastName: 'Name', updatedAt: restored.json.data.updatedAt });
  });

  it('replaces tags (discounted, vip) without repeats, and clears them with an empty list', async () => {
    const c = await created(org);
    expect((await patch(org, c.id, { tags: ['vip', 'discounted', 'vip'] })).json.data.tags).toEqual(['discounted', 'vip']);
    expect((await patch(org, c.id, { tags: ['vip'] })).json.data.tags).toEqual(['vip']);
    expect((await patch(org, c.id, { tags: Array.from({ length: 10 }, () => 'vip') })).json.data.tags).toEqual(['vip']);
    for (const tags of [['gold'], Array.from({ length: 11 }, () => 'vip'), 'vip']) {
      const bad = await patch(org, c.id, { tags });
      expect(bad.status, JSON.stringify(tags)).toBe(400);
      expect(bad.json.message).toContain('tags');
    }
    expect((await get(org, c.id)).json.data.tags).toEqual(['vip']);
    expect((await patch(org, c.id, { tags: [] })).json.data.tags).toEqual([]);
  });

  it('takes the address form (address) and the primaryAddress form (customerAddress, dateOfBirth, jobTitle), but not both addresses at once', async () => {
    const c = await created(org);
    const address = { country: 'DE', address1: 'Unter den Linden 1', address2: null, city: 'Berlin', region: 'Berlin', zip: '10117' };
    const first = await patch(org, c.id, { address });
    expect(first.status).toBe(200);
    expect(first.json.data.primaryAddress).toEqual({ customerAddress: address, dateOfBirth: null, jobTitle: null });

    const second = await patch(org, c.id, { primaryAddress: { dateOfBirth: '1990-05-17', jobTitle: 'Buyer' } });
    expect(second.status).toBe(200);
    expect(second.json.data.primaryAddress).toEqual({ customerAddress: address, dateOfBirth: '1990-05-17', jobTitle: 'Buyer' });

    const moved = await patch(org, c.id, { primaryAddress: { customerAddress: { country: 'FR', city: 'Paris' } } });
    expect(moved.json.data.primaryAddress.customerAddress).toEqual({ country: 'FR', city: 'Paris', address1: null, address2: null, region: null, zip: null });

    const both = await patch(org, c.id, { address, primaryAddress: { customerAddress: address } });
    expect(both.status).toBe(400);
    expect(both.json.message).toContain('address');

    const cleared = await patch(org, c.id, { address: null, primaryAddress: { jobTitle: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.json.data.primaryAddress).toEqual({ customerAddress: null, dateOfBirth: '1990-05-17', jobTitle: null });

    // An address without any field is no address.
    expect((await patch(org, c.id, { address })).json.data.primaryAddress.customerAddress).toEqual(address);
    expect((await patch(org, c.id, { address: { city: null } })).json.data.primaryAddress.customerAddress).toBeNull();
  });

  it('stores the primary payment instrument reference, checks its method and id, and clears it with null', async () => {
    const c = await created(org);
    const set = await patch(org, c.id, { primaryPaymentInstrument: { method: 'payment-card', id: 'pi_123' } });
    expect(set.status).toBe(200);
    expect(set.json.data.primaryPaymentInstrument).toEqual({ method: 'payment-card', id: 'pi_123' });
    expect((await patch(org, c.id, { primaryPaymentInstrument: { method: 'SEPA', id: 'p'.repeat(50) } })).status).toBe(200);
    for (const ref of [
      { method: 'carrier-pigeon', id: 'pi_1' },
      { method: 'payment-card', id: 'p'.repeat(51) },
      { method: 'payment-card' },
      { method: 'ach', id: '' },
    ]) {
      const res = await patch(org, c.id, { primaryPaymentInstrument: ref });
      expect(res.status, JSON.stringify(ref)).toBe(400);
      expect(res.json.message).toContain('primaryPaymentInstrument');
    }
    expect((await get(org, c.id)).json.data.primaryPaymentInstrument).toEqual({ method: 'SEPA', id: 'p'.repeat(50) });
    expect((await patch(org, c.id, { primaryPaymentInstrument: null })).json.data.primaryPaymentInstrument).toBeNull();
  });

  it('accepts every update length limit at its value and refuses one past it with 400, changing nothing', async () => {
    const c = await created(org);
    const limits: Array<[string, number, (n: number) => Record<string, unknown>]> = [
      ['firstName', 45, (n) => ({ firstName: 'f'.repeat(n) })],
      ['lastName', 45, (n) => ({ lastName: 'l'.repeat(n) })],
      ['organization', 255, (n) => ({ organization: 'o'.repeat(n) })],
      ['phoneNumber', 10, (n) => ({ phoneNumber: '5'.repeat(n) })],
      ['address.address1', 255, (n) => ({ address: { address1: 'a'.repeat(n) } })],
      ['address.zip', 20, (n) => ({ address: { zip: 'z'.repeat(n) } })],
      ['primaryAddress.jobTitle', 100, (n) => ({ primaryAddress: { jobTitle: 'j'.repeat(n) } })],
    ];
    for (const [field, max, body] of limits) {
      const ok = await patch(org, c.id, body(max));
      expect(ok.status, `${field} at ${max}`).toBe(200);
      const past = await patch(org, c.id, body(max + 1));
      expect(past.status, `${field} at ${max + 1}`).toBe(400);
      expect(past.json.message).toContain(field);
      expect((await get(org, c.id)).json.data).toEqual(ok.json.data);
    }
  });

  it("refuses an empty change, a null e-mail and unknown fields with 400, and answers 404 for another organization's customer", async () => {
    const c = await created(org);
    for (const body of [{}, { email: null }, { primaryAddress: {} }, { lifetimeRevenue: 5 }, { isTestData: false }]) {
      const res = await patch(org, c.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
    }
    const theirs = await created(other, { firstName: 'Theirs' });
    const res = await patch(org, theirs.id, { firstName: 'Mine' });
    expect(res.status).toBe(404);
    expect(res.json.errorCode).toBe('customer.not_found');
    expect((await get(other, theirs.id)).json.data.firstName).toBe('Theirs');
    const before = await countOf(org);
    expect((await patch(org, newCustomerId(), { firstName: 'Ghost' })).status).toBe(404);
    expect(await countOf(org)).toBe(before);
  });

  it('keeps both changes when two updates of different fields run at once', async () => {
    const c = await created(org);
    const [a, b] = await Promise.all([patch(org, c.id, { firstName: 'Parallel' }), patch(org, c.id, { tags: ['vip'] })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await get(org, c.id)).json.data).toMatchObject({ firstName: 'Parallel', tags: ['vip'] });
  });
});

describe('customers: payments keep revenue and last payment time', () => {
  it("adds each payment to its currency in the same transaction, and shows the report currency's total in major units", async () => {
    const c = await created(org);
    await transactWrite([['payment', [recordCustomerPayment(org.organizationId, c.id, 1999, 'USD', '2025-01-02T03:04:05.000Z')]]]);
    await transactWrite([['payment', [recordCustomerPayment(org.organizationId, c.id, 1, 'usd', '2025-01-03T00:00:00.000Z')]]]);
    await transactWrite([['payment', [recordCustomerPayment(org.organizationId, c.id, 500, 'JPY', '2025-01-04T00:00:00.000Z')]]]);
    const read = (await get(org, c.id)).json.data;
    expect(read).toMatchObject({
      lifetimeRevenue: 20,
      lifetimeRevenueCurrency: 'USD',
      lifetimeRevenueByCurrency: { USD: 20, JPY: 500 },
      lastPaymentTime: '2025-01-04T00:00:00.000Z',
      updatedAt: c.updatedAt,
    });
  });

  it("reports lifetimeRevenue in the organization's report currency, and filters and sorts on it", async () => {
    const caller = await unlinkedAccount();
    const registered = await orgCall('POST', '/v1/public-api/organizations', {
      fullKey: caller.fullKey,
      body: {
        organizationName: 'Euro Org',
        website: 'https://euro.example',
        country: 'DE',
        reportCurrency: 'EUR',
        cfWorkspaceHash: 'ws_eur',
        // Both webhook URLs are held to the delivery rules; the tests resolve no names, so the live one is a public address.
        webhookMeta: { url: 'https://93.184.216.34/hooks/live', eventTypes: ['transaction-processed'] },
        // The local stack allows loopback receivers for this deployment's (sandbox) webhook.
        sandboxWebhookMeta: { url: 'http://127.0.0.1:9999/hooks', eventTypes: ['transaction-processed'] },
      },
    });
    expect(registered.status, registered.text).toBe(201);
    const euro = { ...org, organizationId: registered.json.data.id as string, fullKey: caller.fullKey };
    const [rich, poor] = [await created(euro), await created(euro)];
    await transactWrite([['payment', [recordCustomerPayment(euro.organizationId, rich.id, 2550, 'EUR', '2025-03-01T00:00:00.000Z')]]]);
    await transactWrite([['payment', [recordCustomerPayment(euro.organizationId, poor.id, 900_000, 'USD', '2025-03-02T00:00:00.000Z')]]]);
    expect((await get(euro, rich.id)).json.data).toMatchObject({
      lifetimeRevenue: 25.5,
      lifetimeRevenueCurrency: 'EUR',
      lifetimeRevenueByCurrency: { EUR: 25.5 },
    });
    expect((await get(euro, poor.id)).json.data).toMatchObject({
      lifetimeRevenue: 0,
      lifetimeRevenueCurrency: 'EUR',
      lifetimeRevenueByCurrency: { USD: 9000 },
    });
    expect(ids(await list(euro, '?revenueMin=25.5'))).toEqual([rich.id]);
    expect(ids(await list(euro, '?sortBy=lifetimeRevenue&sortDirection=desc'))).toEqual([rich.id, poor.id]);
  });

  it('counts every one of 10 concurrent payments exactly once', async () => {
    const c = await created(org);
    const at = (i: number) => `2025-02-01T00:00:${String(i).padStart(2, '0')}.000Z`;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => transactWrite([['payment', [recordCustomerPayment(org.organizationId, c.id, 100 + i, 'EUR', at(i))]]], 20)),
    );
    const stored = await getCustomer(org.organizationId, c.id);
    expect(stored!.revenue).toEqual({ EUR: 10 * 100 + 45 });
    expect(stored!.lastPaymentTime! >= at(0)).toBe(true);
  });

  it("fails the payment's transaction for a customer that is not the organization's", async () => {
    const theirs = await created(other);
    const error = await transactWrite([['payment', [recordCustomerPayment(org.organizationId, theirs.id, 100, 'USD', new Date().toISOString())]]]).catch(
      (e: unknown) => e,
    );
    expect(cancellationReasons(error)).toEqual(['ConditionalCheckFailed']);
    expect((await getCustomer(other.organizationId, theirs.id))!.revenue).toEqual({});
  });

  it('writes a customer a payment makes together with its customer.created event, with the payment counted', async () => {
    const organization = (await getMerchant(org.organizationId))!;
    const email = uniqueEmail('payer');
    const at = new Date().toISOString();
    const { customer, items } = newCustomerForPayment(organization, email, { amountMinor: 4999, currency: 'USD', at });
    await transactWrite([['customer', items]]);
    const read = await get(org, customer.id);
    expect(read.json.data).toMatchObject({ email, lifetimeRevenue: 49.99, lastPaymentTime: at, isTestData: true, createdAt: at });
    const events = (await eventItemsOf(org.organizationId)).filter((e) => (e.payload as { customerId?: string }).customerId === customer.id);
    expect(events.map((e) => [e.type, e.payload])).toEqual([['customer.created', { customerId: customer.id, email }]]);
  });
});

/** A customer record written straight to the table, for list tests that need chosen times and revenue. */
function seeded(organizationId: string, c: Partial<Customer> & { createdAt: string }): Customer {
  return {
    id: newCustomerId(),
    organizationId,
    firstName: null,
    lastName: null,
    organization: null,
    email: uniqueEmail('seed'),
    phoneNumber: null,
    isEnhancedDueDiligenceRequired: false,
    address: null,
    dateOfBirth: null,
    jobTitle: null,
    tags: [],
    primaryPaymentInstrument: null,
    revenue: {},
    lastPaymentTime: null,
    isTestData: true,
    updatedAt: c.createdAt,
    ...c,
  };
}

const at = (day: number) => new Date(Date.UTC(2025, 0, day)).toISOString();
const address = (country: string) => ({ address1: null, address2: null, country, city: null, region: null, zip: null });

/** Six customers whose every sort and filter gives a different, known answer. */
async function seededOrganization() {
  const org = await organizationAccount();
  const tag = randomUUID().slice(0, 8);
  const o = org.organizationId;
  const c = {
    ada: seeded(o, {
      createdAt: at(1),
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `b-ada-${tag}@example.com`,
      organization: 'Analytical Engines',
      address: address('GB'),
      tags: ['vip'],
      primaryPaymentInstrument: { method: 'payment-card', id: 'pi_a' },
      revenue: { USD: 10_000 },
      lastPaymentTime: at(20),
    }),
    grace: seeded(o, {
      createdAt: at(2),
      firstName: 'grace',
      lastName: 'Hopper',
      email: `d-grace-${tag}@example.com`,
      address: address('US'),
      tags: ['discounted'],
      primaryPaymentInstrument: { method: 'SEPA', id: 'pi_g' },
      revenue: { USD: 5_000, EUR: 90_000 },
      lastPaymentTime: at(25),
    }),
    alan: seeded(o, { createdAt: at(3), firstName: 'Alan', lastName: 'Turing', email: `a-alan-${tag}@example.com`, address: address('DE') }),
    zoe: seeded(o, {
      createdAt: at(4),
      firstName: 'Zoë',
      lastName: 'Zed',
      email: `f-zoe-${tag}@example.com`,
      address: address('US'),
      tags: ['discounted', 'vip'],
      primaryPaymentInstrument: { method: 'ach', id: 'pi_z' },
      revenue: { USD: 30_000 },
      lastPaymentTime: at(10),
    }),
    anon: seeded(o, { createdAt: at(5), email: `c-anon-${tag}@example.com`, revenue: { USD: 1_000 }, lastPaymentTime: at(30) }),
    emile: seeded(o, {
      createdAt: at(6),
      firstName: 'Émile',
      lastName: 'Borel',
      email: `e-emile-${tag}@example.com`,
      organization: 'Lovelace Labs',
      address: address('FR'),
      primaryPaymentInstrument: { method: 'payment-card', id: 'pi_e' },
      isTestData: false,
    }),
  };
  await putCustomers(Object.values(c));
  const id = Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.id])) as Record<keyof typeof c, string>;
  return { org, id };
}

type Seeded = Awaited<ReturnType<typeof seededOrganization>>;
type Key = keyof Seeded['id'];

describe('customers: list', () => {
  let seededOrg: Org;
  let id: Seeded['id'];
  beforeAll(async () => {
    ({ org: seededOrg, id } = await seededOrganization());
  });
  const listSeeded = (query = '') => list(seededOrg, query);

  it('lists in the list envelope, newest first by default, with the total count and paging', async () => {
    const res = await listSeeded();
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ type: 'list', totalCount: 6, paginationMeta: { limit: 20, offset: 0 } });
    expect(ids(res)).toEqual([id.emile, id.anon, id.zoe, id.alan, id.grace, id.ada]);
    const page = await listSeeded('?limit=2&offset=1');
    expect(page.json).toMatchObject({ totalCount: 6, paginationMeta: { limit: 2, offset: 1 } });
    expect(ids(page)).toEqual([id.anon, id.zoe]);
    const none = await listSeeded('?limit=0');
    expect(none.json).toMatchObject({ totalCount: 6, data: [] });
    expect(ids(await listSeeded('?offset=6'))).toEqual([]);
  });

  const sorts: Array<[string, Key[]]> = [
    ['createdAt', ['ada', 'grace', 'alan', 'zoe', 'anon', 'emile']],
    ['email', ['alan', 'ada', 'anon', 'grace', 'emile', 'zoe']],
    // Case and accents are ignored; a customer without a name comes last either way.
    ['name', ['ada', 'alan', 'emile', 'grace', 'zoe', 'anon']],
    // Without an address: last either way (ties by creation time).
    ['country', ['alan', 'emile', 'ada', 'grace', 'zoe', 'anon']],
    ['lifetimeRevenue', ['alan', 'emile', 'anon', 'grace', 'ada', 'zoe']],
    ['lastPaymentTime', ['zoe', 'ada', 'grace', 'anon', 'alan', 'emile']],
  ];
  it.each(sorts)('sorts by %s in both directions', async (sortBy, ascending) => {
    const asc = await listSeeded(`?sortBy=${sortBy}&sortDirection=asc`);
    expect(asc.status).toBe(200);
    expect(ids(asc)).toEqual(ascending.map((k) => id[k]));
    const desc = await listSeeded(`?sortBy=${sortBy}&sortDirection=desc`);
    const withValue = ascending.filter(
      (k) =>
        !(sortBy === 'name' && k === 'anon') && !(sortBy === 'country' && k === 'anon') && !(sortBy === 'lastPaymentTime' && (k === 'alan' || k === 'emile')),
    );
    const withoutValue = ascending.filter((k) => !withValue.includes(k));
    expect(ids(desc)).toEqual([...withValue.reverse(), ...withoutValue.reverse()].map((k) => id[k]));
  });

  const filters: Array<[string, string, Key[]]> = [
    ['search on the name, case-insensitively', 'search=LOVE', ['ada', 'emile']],
    ['search on the full name', 'search=grace%20hop', ['grace']],
    ['search on the e-mail', 'search=c-anon', ['anon']],
    ['search on the organization', 'search=engines', ['ada']],
    ['countries, comma-separated', 'countries=US,DE', ['grace', 'alan', 'zoe']],
    ['countries, repeated', 'countries=US&countries=FR', ['grace', 'zoe', 'emile']],
    ['revenueMin (inclusive, report currency)', 'revenueMin=100', ['ada', 'zoe']],
    ['revenueMax (inclusive)', 'revenueMax=50', ['grace', 'alan', 'anon', 'emile']],
    ['revenueMin and revenueMax', 'revenueMin=10&revenueMax=100', ['ada', 'grace', 'anon']],
    ['createdFrom and createdTo (inclusive)', `createdFrom=${at(2)}&createdTo=${at(4)}`, ['grace', 'alan', 'zoe']],
    ['createdFrom alone', `createdFrom=${at(5)}`, ['anon', 'emile']],
    ['lastPaymentFrom and lastPaymentTo (inclusive; never paid is left out)', `lastPaymentFrom=${at(20)}&lastPaymentTo=${at(25)}`, ['ada', 'grace']],
    ['lastPaymentTo alone', `lastPaymentTo=${at(20)}`, ['ada', 'zoe']],
    ['isVip=true', 'isVip=true', ['ada', 'zoe']],
    ['isVip=false', 'isVip=false', ['grace', 'alan', 'anon', 'emile']],
    ['primaryPaymentInstrumentMethods', 'primaryPaymentInstrumentMethods=payment-card,ach', ['ada', 'zoe', 'emile']],
    ['primaryPaymentInstrumentMethods, repeated', 'primaryPaymentInstrumentMethods=SEPA&primaryPaymentInstrumentMethods=SEPA', ['grace']],
    ['showTestData=false', 'showTestData=false', ['emile']],
    ['showTestData=true', 'showTestData=true', ['ada', 'grace', 'alan', 'zoe', 'anon', 'emile']],
    ['several filters at once', 'countries=US&isVip=true&revenueMin=1', ['zoe']],
  ];
  it.each(filters)('filters: %s', async (_, query, expected) => {
    const res = await listSeeded(`?sortBy=createdAt&sortDirection=asc&${query}`);
    expect(res.status, res.text).toBe(200);
    expect(ids(res)).toEqual(expected.map((k) => id[k]));
    expect(res.json.totalCount).toBe(expected.length);
  });

  it('refuses bad query parameters with 400 request.invalid_query', async () => {
    const bad = [
      'limit=101',
      'limit=-1',
      'offset=-1',
      'sortBy=phoneNumber',
      'sortDirection=up',
      'countries=XX',
      'countries=us',
      'countries=',
      'primaryPaymentInstrumentMethods=carrier-pigeon',
      'revenueMin=-1',
      'revenueMin=abc',
      'revenueMin=10&revenueMax=5',
      `createdFrom=${at(5)}&createdTo=${at(1)}`,
      `lastPaymentFrom=${at(5)}&lastPaymentTo=${at(1)}`,
      'createdFrom=yesterday',
      'isVip=yes',
      'showTestData=1',
      'colour=red',
      `search=${'s'.repeat(256)}`,
    ];
    for (const query of bad) {
      const res = await listSeeded(`?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.errorCode, query).toBe('request.invalid_query');
    }
    expect((await listSeeded(`?search=${'s'.repeat(255)}`)).status).toBe(200);
    expect((await listSeeded('?limit=100')).status).toBe(200);
  });

  it("lists only the calling organization's customers", async () => {
    const theirs = await created(other, { firstName: 'Ada', lastName: 'Lovelace' });
    expect(ids(await listSeeded('?search=ada%20lovelace'))).toEqual([id.ada]);
    const theirList = ids(await list(other, '?search=ada%20lovelace&limit=100'));
    expect(theirList).toContain(theirs.id);
    expect(theirList).not.toContain(id.ada);
  });

  it('lists the same customers on the merchant API, newest first with page, limit, totalCount and totalPages, and searches', async () => {
    const res = await merchantList(seededOrg, '?page=2&limit=4');
    expect(res.status).toBe(200);
    expect(res.json.pagination).toEqual({ page: 2, limit: 4, totalCount: 6, totalPages: 2 });
    expect(ids(res)).toEqual([id.grace, id.ada]);
    expect(res.json.data[1]).toMatchObject({ merchantId: seededOrg.organizationId, firstName: 'Ada', lifetimeRevenue: 100 });
    expect(res.json.data[1].organizationId).toBeUndefined();
    const first = await merchantList(seededOrg);
    expect(first.json.pagination).toEqual({ page: 1, limit: 20, totalCount: 6, totalPages: 1 });
    expect(ids(first)).toEqual(ids(await listSeeded()));
    expect(ids(await merchantList(seededOrg, '?page=3&limit=4'))).toEqual([]);
    const search = await merchantList(seededOrg, '?search=LOVELACE');
    expect(ids(search)).toEqual([id.emile, id.ada]);
    for (const query of ['?page=0', '?limit=0', '?limit=101', '?sortBy=name', `?search=${'s'.repeat(256)}`]) {
      const bad = await merchantList(seededOrg, query);
      expect(bad.status, query).toBe(400);
      expect(bad.json.code, query).toBe('request.invalid_query');
    }
  });
});

describe('customers: merchant API', () => {
  it('reads the same record the organization API created and changed', async () => {
    const c = await created(org, { firstName: 'Grace', lastName: 'Hopper' });
    const changed = (await patch(org, c.id, { tags: ['vip'], address: { country: 'US' } })).json.data;
    const res = await merchantGet(org, c.id);
    expect(res.status).toBe(200);
    const { organizationId, ...rest } = changed;
    expect(res.json).toEqual({ ...rest, merchantId: organizationId });
    expect(ids(await merchantList(org, `?search=${encodeURIComponent(c.email)}`))).toEqual([c.id]);
  });

  it("answers 404 customer.not_found for another merchant's customer and 403 for a merchant outside the key's scope", async () => {
    const theirs = await created(other);
    const res = await merchantGet(org, theirs.id);
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('customer.not_found');
    const stranger = await rootMerchant();
    expect((await merchantList(org, '', stranger.apiKey)).status).toBe(403);
    expect((await merchantGet(other, theirs.id, stranger.apiKey)).status).toBe(403);
  });
});
