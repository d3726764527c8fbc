/**
 * Payment instruments through the local gateway: attaching a card token to a customer (single use, under a race
 * too), the customer's primary instrument, list and search, get, update and its validation, and organization
 * scope. Test titles never hold card numbers (the run's output is searched for them).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import * as paymentInstrumentKeys from '../../../shared/customers/payment-instrument.entity.ts';
import { getPaymentInstrument as readInstrument } from '../../../shared/customers/payment-instruments.repository.ts';
import { CARD_TOKEN_LIFETIME_MINUTES, createCardToken } from '../../../shared/customers/card-tokens.service.ts';
import { gatewaySlugs } from '../../../shared/customers/payment-instruments.schemas.ts';
import { nextYear } from '../../support/dates.ts';
import { cardToken, organizationAccount, orgCall, orgPath, uniqueEmail } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const VISA = '4242424242424242';
const MASTERCARD = '5555555555554444';
const AMEX = '378282246310005';

const newCustomer = async (org: Org, body: Record<string, unknown> = {}) => {
  const res = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, { fullKey: org.fullKey, body: { email: uniqueEmail('buyer'), ...body } });
  expect(res.status).toBe(201);
  return res.json.data.id as string;
};

const instruments = (org: Org, customerId: string) => `${orgPath(org.organizationId)}/customers/${customerId}/payment-instruments`;
const attach = (org: Org, customerId: string, token: unknown) => orgCall('POST', instruments(org, customerId), { fullKey: org.fullKey, body: { token } });
const list = (org: Org, customerId: string, query = '') => orgCall('GET', `${instruments(org, customerId)}${query}`, { fullKey: org.fullKey });
const get = (org: Org, id: string) => orgCall('GET', `${orgPath(org.organizationId)}/payment-instruments/${id}`, { fullKey: org.fullKey });
const patch = (org: Org, id: string, body: unknown) =>
  orgCall('PATCH', `${orgPath(org.organizationId)}/payment-instruments/${id}`, { fullKey: org.fullKey, body });
const getCustomer = (org: Org, customerId: string) => orgCall('GET', `${orgPath(org.organizationId)}/customers/${customerId}`, { fullKey: org.fullKey });

/** A customer with one attached instrument (a Visa card unless said otherwise); returns both ids and the instrument. */
async function attached(org: Org, number = VISA) {
  const customerId = await newCustomer(org);
  const res = await attach(org, customerId, await cardToken(org, number));
  expect(res.status).toBe(201);
  return { customerId, instrument: res.json.data as Record<string, any> & { id: string } };
}

const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

describe('attaching a token to a customer', () => {
  it("answers 201 with the new instrument: the card's brand, last four and expiry, and nothing secret", async () => {
    const org = await organizationAccount();
    const customerId = await newCustomer(org);
    const token = await cardToken(org);
    const res = await attach(org, customerId, token);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      type: 'object',
      data: {
        id: expect.stringMatching(/^inst_[0-9a-f]{32}$/),
        organizationId: org.organizationId,
        customerId,
        type: 'card',
        method: 'payment-card',
        useAsBackup: false,
        billingAddress: {
          firstName: null,
          lastName: null,
          organization: null,
          country: null,
          address1: null,
          address2: null,
          city: null,
          region: null,
          zip: null,
          phoneNumber: null,
        },
        bankAccount: null,
        creditCard: {
          creditCardLastFourDigits: '4242',
          brand: 'visa',
          expireYear: nextYear,
          expireMonth: 12,
          expireDate: `${nextYear}-12-31`,
          stickyGatewaySlug: 'default',
        },
        createdAt: expect.any(String),
        updatedAt: res.json.data.createdAt,
        deletedAt: null,
      },
    });
    expect(res.text).not.toContain(VISA);
    expect(res.text).not.toMatch(/fingerprint|processorReference|tokenId/);
    // Stored: the processor's reference and the fingerprint, for charges and "same card" checks.
    const stored = await readInstrument(org.organizationId, res.json.data.id);
    expect(stored).toMatchObject({ tokenId: token, processorReference: expect.any(String), fingerprint: expect.any(String) });
    expect(JSON.stringify(stored)).not.toContain(VISA);
  });

  it('keeps each brand the token names, and an expiry date on the last day of the expiry month', async () => {
    const org = await organizationAccount();
    const customerId = await newCustomer(org);
    let leapYear = nextYear;
    while (lastDay(leapYear, 2) !== 29) leapYear++;
    const master = await attach(org, customerId, await cardToken(org, MASTERCARD, { expirationMonth: 2, expirationYear: leapYear }));
    const amex = await attach(org, customerId, await cardToken(org, AMEX, { expirationMonth: 4, expirationYear: nextYear }));
    expect(master.json.data.creditCard).toMatchObject({
      brand: 'mastercard',
      creditCardLastFourDigits: '4444',
      expireMonth: 2,
      expireYear: leapYear,
      expireDate: `${leapYear}-02-29`,
    });
    expect(amex.json.data.creditCard).toMatchObject({
      brand: 'american-express',
      creditCardLastFourDigits: '0005',
      expireMonth: 4,
      expireDate: `${nextYear}-04-30`,
    });
  });

  it("makes the first instrument the customer's primary one and leaves it primary when more are attached", async () => {
    const org = await organizationAccount();
    const customerId = await newCustomer(org);
    const before = await getCustomer(org, customerId);
    expect(before.json.data.primaryPaymentInstrument).toBeNull();
    const first = await attach(org, customerId, await cardToken(org));
    const afterFirst = await getCustomer(org, customerId);
    expect(afterFirst.json.data.primaryPaymentInstrument).toEqual({ method: 'payment-card', id: first.json.data.id });
    expect(afterFirst.json.data.updatedAt >= before.json.data.updatedAt).toBe(true);

    const second = await attach(org, customerId, await cardToken(org, MASTERCARD));
    expect(second.status).toBe(201);
    expect((await getCustomer(org, customerId)).json.data.primaryPaymentInstrument).toEqual({ method: 'payment-card', id: first.json.data.id });
  });

  it('attaches two different tokens racing for a customer without a primary instrument, and makes exactly one of them primary', async () => {
    const org = await organizationAccount();
    const customerId = await newCustomer(org);
    const tokens = [await cardToken(org), await cardToken(org, MASTERCARD), await cardToken(org, AMEX)];
    const answers = await Promise.all(tokens.map((token) => attach(org, customerId, token)));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201]);
    const ids = answers.map((r) => r.json.data.id as string);
    const primary = (await getCustomer(org, customerId)).json.data.primaryPaymentInstrument;
    expect(primary).toEqual({ method: 'payment-card', id: expect.any(String) });
    expect(ids).toContain(primary.id);
    expect((await list(org, customerId)).json.totalCount).toBe(3);
  });

  it('keeps a primary instrument the customer was given before its first attach', async () => {
    const org = await organizationAccount();
    const customerId = await newCustomer(org);
    const set = await orgCall('PATCH', `${orgPath(org.organizationId)}/customers/${customerId}`, {
      fullKey: org.fullKey,
      body: { primaryPaymentInstrument: { method: 'paypal', id: 'elsewhere_1' } },
    });
    expect(set.status).toBe(200);
    expect((await attach(org, customerId, await cardToken(org))).status).toBe(201);
    expect((await getCustomer(org, customerId)).json.data.primaryPaymentInstrument).toEqual({ method: 'paypal', id: 'elsewhere_1' });
  });

  it('uses the token up: a second attach, to any customer, is refused with 409 card_token.already_used and makes nothing', async () => {
    const org = await organizationAccount();
    const customerId = await newCustomer(org);
    const other = await newCustomer(org);
    const token = await cardToken(org);
    expect((await attach(org, customerId, token)).status).toBe(201);

    for (const target of [customerId, other]) {
      const again = await attach(org, target, token);
      expect(again.status).toBe(409);
      expect(again.json).toMatchObject({ errorCode: 'card_token.already_used', statusCode: 409 });
    }
    expect((await list(org, customerId)).json.totalCount).toBe(1);
    expect((await list(org, other)).json.totalCount).toBe(0);
    expect((await getCustomer(org, other)).json.data.primaryPaymentInstrument).toBeNull();
  });

  it('gives exactly one instrument, and 409 card_token.already_used to the others, when attaches of one token race', async () => {
    const org = await organizationAccount();
    const [a, b] = [await newCustomer(org), await newCustomer(org)];
    for (let round = 0; round < 3; round++) {
      const token = await cardToken(org);
      const answers = await Promise.all([attach(org, a, token), attach(org, b, token), attach(org, a, token)]);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 409, 409]);
      for (const refused of answers.filter((r) => r.status === 409)) expect(refused.json.errorCode).toBe('card_token.already_used');
    }
    const total = (await list(org, a)).json.totalCount + (await list(org, b)).json.totalCount;
    expect(total).toBe(3);
  });

  it('refuses an expired token with 422 card_token.expired and makes nothing', async () => {
    const org = await organizationAccount();
    const customerId = await newCustomer(org);
    const madeAt = new Date(Date.now() - (CARD_TOKEN_LIFETIME_MINUTES + 1) * 60_000);
    const token = await createCardToken(org.organizationId, { number: VISA, cvc: '123', expMonth: 12, expYear: nextYear }, madeAt);
    const res = await attach(org, customerId, token.id);
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ errorCode: 'card_token.expired', statusCode: 422 });
    expect((await list(org, customerId)).json.totalCount).toBe(0);
    expect((await getCustomer(org, customerId)).json.data.primaryPaymentInstrument).toBeNull();
  });

  it("refuses an unknown, malformed or other organization's token with 404 card_token.not_found and leaves that token usable", async () => {
    const org = await organizationAccount();
    const stranger = await organizationAccount();
    const customerId = await newCustomer(org);
    const foreign = await cardToken(stranger);
    for (const token of [foreign, `tok_${'0'.repeat(32)}`, 'not-a-token']) {
      const res = await attach(org, customerId, token);
      expect(res.status).toBe(404);
      expect(res.json.errorCode).toBe('card_token.not_found');
    }
    expect((await list(org, customerId)).json.totalCount).toBe(0);
    expect((await attach(stranger, await newCustomer(stranger), foreign)).status).toBe(201);
  });

  it("refuses an unknown or other organization's customer with 404 customer.not_found and leaves the token unused", async () => {
    const org = await organizationAccount();
    const stranger = await organizationAccount();
    const foreignCustomer = await newCustomer(stranger);
    const token = await cardToken(org);
    for (const customerId of [foreignCustomer, `cus_${'0'.repeat(32)}`, 'nobody']) {
      const res = await attach(org, customerId, token);
      expect(res.status).toBe(404);
      expect(res.json.errorCode).toBe('customer.not_found');
    }
    expect((await list(stranger, foreignCustomer)).json.totalCount).toBe(0);
    expect((await attach(org, await newCustomer(org), token)).status).toBe(201);
  });

  it('refuses a body without a string token with 400, using nothing', async () => {
    const org = await organizationAccount();
    const customerId = await newCustomer(org);
    const token = await cardToken(org);
    for (const body of [{}, { token: 42 }, { token: '' }, { token, extra: true }, { token: 't'.repeat(101) }]) {
      const res = await orgCall('POST', instruments(org, customerId), { fullKey: org.fullKey, body });
      expect(res.status).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
    }
    expect((await attach(org, customerId, token)).status).toBe(201);
  });

  it('needs the organization API key of a linked account', async () => {
    const org = await organizationAccount();
    const stranger = await organizationAccount();
    const customerId = await newCustomer(org);
    const token = await cardToken(org);
    const anonymous = await orgCall('POST', instruments(org, customerId), { body: { token } });
    expect(anonymous.status).toBe(401);
    const foreign = await orgCall('POST', instruments(org, customerId), { fullKey: stranger.fullKey, body: { token } });
    expect(foreign.status).toBe(403);
    expect((await attach(org, customerId, token)).status).toBe(201);
  });
});

describe("listing a customer's instruments", () => {
  async function customerWithThree(org: Org) {
    const customerId = await newCustomer(org);
    const ids: string[] = [];
    for (const number of [VISA, MASTERCARD, AMEX]) {
      const res = await attach(org, customerId, await cardToken(org, number));
      expect(res.status).toBe(201);
      ids.push(res.json.data.id);
    }
    return { customerId, ids };
  }

  it('answers the list envelope, newest first by default, oldest first with sortDirection=asc', async () => {
    const org = await organizationAccount();
    const { customerId, ids } = await customerWithThree(org);
    await newCustomer(org).then(async (other) => attach(org, other, await cardToken(org)));
    const res = await list(org, customerId);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ type: 'list', totalCount: 3, paginationMeta: { limit: 20, offset: 0 } });
    expect(res.json.data.map((p: { id: string }) => p.id)).toEqual([...ids].reverse());
    expect(res.json.data[0]).toEqual((await get(org, ids[2]!)).json.data);
    const asc = await list(org, customerId, '?sortDirection=asc');
    expect(asc.json.data.map((p: { id: string }) => p.id)).toEqual(ids);
  });

  it('pages with limit and offset and counts every match', async () => {
    const org = await organizationAccount();
    const { customerId, ids } = await customerWithThree(org);
    const page = await list(org, customerId, '?sortDirection=asc&limit=2&offset=1');
    expect(page.json).toMatchObject({ totalCount: 3, paginationMeta: { limit: 2, offset: 1 } });
    expect(page.json.data.map((p: { id: string }) => p.id)).toEqual(ids.slice(1));
    const none = await list(org, customerId, '?limit=0');
    expect(none.json).toMatchObject({ totalCount: 3, data: [] });
    const past = await list(org, customerId, '?offset=5');
    expect(past.json).toMatchObject({ totalCount: 3, data: [] });
  });

  it('searches the last four digits, the brand and the billing name, case-insensitively', async () => {
    const org = await organizationAccount();
    const { customerId, ids } = await customerWithThree(org);
    expect((await patch(org, ids[0]!, { billingAddress: { firstName: 'Ada', lastName: 'Lovelace', organization: 'Engines Ltd' } })).status).toBe(200);
    const found = async (search: string) =>
      (await list(org, customerId, `?sortDirection=asc&search=${encodeURIComponent(search)}`)).json.data.map((p: { id: string }) => p.id);
    expect(await found('4444')).toEqual([ids[1]]);
    expect(await found('MasterCard')).toEqual([ids[1]]);
    expect(await found('american express')).toEqual([ids[2]]);
    expect(await found('american-express')).toEqual([ids[2]]);
    expect(await found('lovelace')).toEqual([ids[0]]);
    expect(await found('ada love')).toEqual([ids[0]]);
    expect(await found('engines')).toEqual([ids[0]]);
    expect(await found('nothing like it')).toEqual([]);
    expect((await list(org, customerId, '?search=4444')).json.totalCount).toBe(1);
  });

  it('answers an empty list for a customer without instruments', async () => {
    const org = await organizationAccount();
    const res = await list(org, await newCustomer(org));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ type: 'list', totalCount: 0, paginationMeta: { limit: 20, offset: 0 }, data: [] });
  });

  it("answers 404 customer.not_found for an unknown or other organization's customer", async () => {
    const org = await organizationAccount();
    const stranger = await organizationAccount();
    const { customerId } = await attached(stranger);
    for (const id of [customerId, `cus_${'f'.repeat(32)}`]) {
      const res = await list(org, id);
      expect(res.status).toBe(404);
      expect(res.json.errorCode).toBe('customer.not_found');
    }
  });

  it('refuses a bad query with 400 request.invalid_query', async () => {
    const org = await organizationAccount();
    const customerId = await newCustomer(org);
    for (const query of ['?limit=101', '?offset=-1', '?sortDirection=up', '?unknown=1', `?search=${'s'.repeat(256)}`]) {
      const res = await list(org, customerId, query);
      expect(res.status).toBe(400);
      expect(res.json.errorCode).toBe('request.invalid_query');
    }
    expect((await list(org, customerId, `?limit=100&search=${'s'.repeat(255)}`)).status).toBe(200);
  });
});

describe('reading an instrument', () => {
  it('answers the instrument in the object envelope', async () => {
    const org = await organizationAccount();
    const { instrument } = await attached(org);
    const res = await get(org, instrument.id);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ type: 'object', data: instrument });
  });

  it("answers 404 payment_instrument.not_found for another organization's, an unknown or a malformed id", async () => {
    const org = await organizationAccount();
    const stranger = await organizationAccount();
    const { instrument } = await attached(stranger);
    for (const id of [instrument.id, `inst_${'0'.repeat(32)}`, 'inst_x']) {
      const res = await get(org, id);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ errorCode: 'payment_instrument.not_found', statusCode: 404 });
    }
  });
});

describe('updating an instrument', () => {
  it('changes the billing address field by field: address is address1, null clears a field, others stay', async () => {
    const org = await organizationAccount();
    const { instrument } = await attached(org);
    const full = {
      country: 'DE',
      firstName: 'Grace',
      organization: 'Navy',
      lastName: 'Hopper',
      address: 'Main St 1',
      address2: 'Floor 2',
      city: 'Berlin',
      region: 'BE',
      zip: '10115',
      phoneNumber: '+491234567',
    };
    const first = await patch(org, instrument.id, { billingAddress: full });
    expect(first.status).toBe(200);
    expect(first.json.data.billingAddress).toEqual({
      country: 'DE',
      firstName: 'Grace',
      organization: 'Navy',
      lastName: 'Hopper',
      address1: 'Main St 1',
      address2: 'Floor 2',
      city: 'Berlin',
      region: 'BE',
      zip: '10115',
      phoneNumber: '+491234567',
    });
    expect(first.json.data.updatedAt > instrument.updatedAt || first.json.data.updatedAt === instrument.updatedAt).toBe(true);
    expect(first.json.data.createdAt).toBe(instrument.createdAt);

    const second = await patch(org, instrument.id, { billingAddress: { city: 'Hamburg', address2: null } });
    expect(second.status).toBe(200);
    expect(second.json.data.billingAddress).toMatchObject({ city: 'Hamburg', address2: null, address1: 'Main St 1', firstName: 'Grace' });
    expect((await get(org, instrument.id)).json).toEqual(second.json);
  });

  it("changes the card's expiry, its sticky gateway, its method and its backup flag", async () => {
    const org = await organizationAccount();
    const { instrument } = await attached(org);
    const year = nextYear + 3;
    const res = await patch(org, instrument.id, {
      creditCard: { expireMonth: 2, expireYear: year },
      stickyGatewaySlug: 'adyen',
      method: 'apple-pay',
      useAsBackup: true,
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      method: 'apple-pay',
      useAsBackup: true,
      creditCard: {
        creditCardLastFourDigits: '4242',
        brand: 'visa',
        expireMonth: 2,
        expireYear: year,
        expireDate: `${year}-02-${lastDay(year, 2)}`,
        stickyGatewaySlug: 'adyen',
      },
    });
    expect((await get(org, instrument.id)).json).toEqual(res.json);
  });

  it('takes each sticky gateway slug: default and the five processors', async () => {
    const org = await organizationAccount();
    const { instrument } = await attached(org);
    expect(gatewaySlugs).toHaveLength(6);
    for (const slug of gatewaySlugs) {
      const res = await patch(org, instrument.id, { stickyGatewaySlug: slug });
      expect(res.status).toBe(200);
      expect(res.json.data.creditCard.stickyGatewaySlug).toBe(slug);
    }
  });

  it('accepts an expiry in the current month and refuses a past one with 400 card.expired, changing nothing', async () => {
    const org = await organizationAccount();
    const { instrument } = await attached(org);
    const now = new Date();
    const thisMonth = { expireMonth: now.getUTCMonth() + 1, expireYear: now.getUTCFullYear() };
    const lastMonth =
      now.getUTCMonth() === 0
        ? { expireMonth: 12, expireYear: now.getUTCFullYear() - 1 }
        : { expireMonth: now.getUTCMonth(), expireYear: now.getUTCFullYear() };
    const refused = await patch(org, instrument.id, { creditCard: lastMonth, useAsBackup: true });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ errorCode: 'card.expired', statusCode: 400 });
    expect((await get(org, instrument.id)).json.data).toEqual(instrument);
    const tooFar = await patch(org, instrument.id, { creditCard: { expireMonth: 1, expireYear: now.getUTCFullYear() + 21 } });
    expect(tooFar.status).toBe(400);
    expect(tooFar.json.errorCode).toBe('card.invalid_expiry');
    const accepted = await patch(org, instrument.id, { creditCard: thisMonth });
    expect(accepted.status).toBe(200);
    expect(accepted.json.data.creditCard).toMatchObject(thisMonth);
  });

  it('refuses malformed updates with 400 request.validation_failed, changing nothing', async () => {
    const org = await organizationAccount();
    const { instrument } = await attached(org);
    const bad: unknown[] = [
      {},
      { billingAddress: {} },
      { unknown: 1 },
      { billingAddress: { address1: 'not the update name' } },
      { billingAddress: { country: 'de' } },
      { billingAddress: { country: 'XX' } },
      { billingAddress: { phoneNumber: 'call me' } },
      { billingAddress: { firstName: '' } },
      { creditCard: { expireMonth: 13, expireYear: nextYear } },
      { creditCard: { expireMonth: 0, expireYear: nextYear } },
      { creditCard: { expireMonth: 6, expireYear: 30 } },
      { creditCard: { expireMonth: 6 } },
      { creditCard: { expireMonth: 6.5, expireYear: nextYear } },
      { creditCard: { expireMonth: 6, expireYear: nextYear, cvc: '123' } },
      { stickyGatewaySlug: 'paypal' },
      { method: 'carrier-pigeon' },
      { useAsBackup: 'yes' },
    ];
    for (const body of bad) {
      const res = await patch(org, instrument.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
    }
    expect((await get(org, instrument.id)).json.data).toEqual(instrument);
  });

  it('accepts every billing-address limit at its value and refuses one past it with 400', async () => {
    const org = await organizationAccount();
    const { instrument } = await attached(org);
    const limits: Array<[string, number, string]> = [
      ['firstName', 45, 'f'],
      ['lastName', 45, 'l'],
      ['organization', 255, 'o'],
      ['address', 255, 'a'],
      ['address2', 255, 'b'],
      ['city', 100, 'c'],
      ['region', 100, 'r'],
      ['zip', 20, 'z'],
      ['phoneNumber', 10, '1'],
    ];
    for (const [field, max, char] of limits) {
      const ok = await patch(org, instrument.id, { billingAddress: { [field]: char.repeat(max) } });
      expect(ok.status, field).toBe(200);
      expect(ok.json.data.billingAddress[field === 'address' ? 'address1' : field]).toBe(char.repeat(max));
      const over = await patch(org, instrument.id, { billingAddress: { [field]: char.repeat(max + 1) } });
      expect(over.status, field).toBe(400);
      expect(over.json.errorCode).toBe('request.validation_failed');
      expect((await get(org, instrument.id)).json.data.billingAddress[field === 'address' ? 'address1' : field]).toBe(char.repeat(max));
    }
  });

  it("answers 404 payment_instrument.not_found for another organization's or an unknown instrument and creates nothing", async () => {
    const org = await organizationAccount();
    const stranger = await organizationAccount();
    const { instrument } = await attached(stranger);
    const unknown = `inst_${'a'.repeat(32)}`;
    for (const id of [instrument.id, unknown, 'inst_bad']) {
      const res = await patch(org, id, { useAsBackup: true });
      expect(res.status).toBe(404);
      expect(res.json.errorCode).toBe('payment_instrument.not_found');
    }
    expect((await get(stranger, instrument.id)).json.data).toEqual(instrument);
    expect(await readInstrument(org.organizationId, unknown)).toBeNull();
    const method = await patch(org, instrument.id, { method: 'ach' });
    expect(method.status).toBe(404);
    expect((await get(stranger, instrument.id)).json.data.method).toBe('payment-card');
  });

  it('refuses to change a deleted instrument with 409 payment_instrument.deleted', async () => {
    const org = await organizationAccount();
    const { instrument } = await attached(org);
    const deletedAt = new Date().toISOString();
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: paymentInstrumentKeys.paymentInstrumentKey(instrument.id),
        UpdateExpression: 'SET deletedAt = :at',
        ExpressionAttributeValues: { ':at': deletedAt },
      }),
    );
    const res = await patch(org, instrument.id, { useAsBackup: true });
    expect(res.status).toBe(409);
    expect(res.json.errorCode).toBe('payment_instrument.deleted');
    const read = await get(org, instrument.id);
    expect(read.json.data).toMatchObject({ deletedAt, useAsBackup: false });
    expect((await list(org, instrument.customerId)).json.totalCount).toBe(0);
  });

  it('refuses card fields on an instrument that holds no card with 422 payment_instrument.not_a_card, and takes the others', async () => {
    const org = await organizationAccount();
    const { instrument } = await attached(org);
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: paymentInstrumentKeys.paymentInstrumentKey(instrument.id),
        UpdateExpression: 'REMOVE creditCard',
      }),
    );
    for (const body of [{ stickyGatewaySlug: 'stripe' }, { creditCard: { expireMonth: 1, expireYear: nextYear }, useAsBackup: true }]) {
      const res = await patch(org, instrument.id, body);
      expect(res.status).toBe(422);
      expect(res.json.errorCode).toBe('payment_instrument.not_a_card');
    }
    expect((await get(org, instrument.id)).json.data).toMatchObject({ creditCard: null, useAsBackup: false });
    expect((await patch(org, instrument.id, { useAsBackup: true })).json.data).toMatchObject({ creditCard: null, useAsBackup: true });
  });

  it("changes the method the customer's primary instrument names along with a primary instrument's method, and only then", async () => {
    const org = await organizationAccount();
    const { customerId, instrument } = await attached(org);
    const second = await attach(org, customerId, await cardToken(org, MASTERCARD));
    expect((await patch(org, second.json.data.id, { method: 'google-pay' })).status).toBe(200);
    expect((await getCustomer(org, customerId)).json.data.primaryPaymentInstrument).toEqual({ method: 'payment-card', id: instrument.id });

    const res = await patch(org, instrument.id, { method: 'apple-pay', useAsBackup: true });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ method: 'apple-pay', useAsBackup: true });
    expect((await getCustomer(org, customerId)).json.data.primaryPaymentInstrument).toEqual({ method: 'apple-pay', id: instrument.id });
  });

  it('lets concurrent updates of different fields both land', async () => {
    const org = await organizationAccount();
    const { instrument } = await attached(org);
    const answers = await Promise.all([
      patch(org, instrument.id, { billingAddress: { firstName: 'Ada' } }),
      patch(org, instrument.id, { billingAddress: { lastName: 'Lovelace' } }),
      patch(org, instrument.id, { useAsBackup: true }),
      patch(org, instrument.id, { stickyGatewaySlug: 'stripe' }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const read = (await get(org, instrument.id)).json.data;
    expect(read).toMatchObject({
      billingAddress: { firstName: 'Ada', lastName: 'Lovelace' },
      useAsBackup: true,
      creditCard: { stickyGatewaySlug: 'stripe' },
    });
  });
});
