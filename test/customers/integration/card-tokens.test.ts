/**
 * Card tokens through the local gateway: the sandbox stage endpoint, token list and get, the single-use
 * condition under a race, expiry, and the available payment methods. Test titles never hold card numbers (the
 * run's output is searched for them).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { routeMatcher } from '../../../shared/platform/http/route-match.ts';
import { consumeCardToken, getCardToken as readToken } from '../../../shared/customers/card-tokens.repository.ts';
import { getSecretString } from '../../../shared/platform/aws/signed-fetch.ts';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { type NamedParts, transactWrite } from '../../../shared/platform/db/transactions.ts';
import * as keys from '../../../shared/platform/db/keys.ts';
import { normalizeCardNumber } from '../../../shared/customers/cards.rules.ts';
import { DomainError } from '../../../shared/domain/errors.ts';
import { getSandboxCard, sandboxTestCards } from '../../../shared/processor/sandbox-processor.ts';
import { routesFor } from '../../../shared/routes/index.ts';
import { CARD_TOKEN_LIFETIME_MINUTES, cardTokenTransactionError, createCardToken, getUsableCardToken } from '../../../shared/customers/card-tokens.service.ts';
import { availablePaymentMethods } from '../../../shared/customers/payment-methods.service.ts';
import { nextYear } from '../../support/dates.ts';
import { organizationAccount, orgCall, orgPath } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

const VISA = '4242424242424242';
const AMEX = '378282246310005';
const card = (overrides: Record<string, unknown> = {}) => ({
  primaryAccountNumber: VISA,
  cardVerificationValue: '123',
  expirationMonth: 12,
  expirationYear: nextYear,
  ...overrides,
});

const tokens = (org: Org) => `${orgPath(org.organizationId)}/payment-instruments/tokens`;
const tokenize = (org: Org, body: unknown = card()) => orgCall('POST', tokens(org), { fullKey: org.fullKey, body });
const list = (org: Org, query = '') => orgCall('GET', `${tokens(org)}${query}`, { fullKey: org.fullKey });
const get = (org: Org, id: string) => orgCall('GET', `${tokens(org)}/${id}`, { fullKey: org.fullKey });

/** `digits` completed with its Luhn check digit. */
function withCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

const minutes = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 60_000;

describe('the sandbox stage endpoint', () => {
  it('tokenizes a card with 201 and the token record, which lives 15 minutes and can be read back', async () => {
    const org = await organizationAccount();
    const res = await tokenize(org);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      type: 'object',
      data: { id: expect.stringMatching(/^tok_[A-Za-z0-9]{24}$/), createdAt: expect.any(String), expiratedAt: expect.any(String) },
    });
    expect(minutes(res.json.data.createdAt, res.json.data.expiratedAt)).toBe(CARD_TOKEN_LIFETIME_MINUTES);
    expect(Math.abs(Date.parse(res.json.data.createdAt) - Date.now())).toBeLessThan(60_000);
    const read = await get(org, res.json.data.id);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(res.json);
  });

  it('keeps the brand, last four, expiry, fingerprint and processor reference, and never the number or the code', async () => {
    const org = await organizationAccount();
    const res = await tokenize(org, card({ cardVerificationValue: '987' }));
    expect(res.text).not.toContain(VISA);
    const token = await readToken(org.organizationId, res.json.data.id);
    expect(token).toEqual({
      id: res.json.data.id,
      organizationId: org.organizationId,
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: nextYear,
      fingerprint: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      processorReference: expect.stringMatching(/^card_[A-Za-z0-9]{24}$/),
      createdAt: res.json.data.createdAt,
      expiratedAt: res.json.data.expiratedAt,
      consumedAt: null,
    });
    const { Item } = await db.send(new GetCommand({ TableName: tableName(), Key: keys.catalogItem('CARDTOKEN', token!.id) }));
    const stored = JSON.stringify(Item);
    expect(stored).not.toContain(VISA);
    expect(stored).not.toContain('"987"');
    expect(Object.keys(Item!).sort()).toEqual([
      'brand',
      'createdAt',
      'entity',
      'expMonth',
      'expYear',
      'expiratedAt',
      'fingerprint',
      'gsi1pk',
      'gsi1sk',
      'id',
      'last4',
      'organizationId',
      'pk',
      'processorReference',
      'sk',
      'ttl',
      // The random id of the write that made it (docs/design/idempotency.md, "A write the SDK sends twice").
      'writeId',
    ]);
    expect(Item!.writeId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('fingerprints a card with the deployment key: the same number gives the same fingerprint, in any spelling', async () => {
    const org = await organizationAccount();
    const ids = [];
    for (const body of [
      card(),
      card({ primaryAccountNumber: '4242 4242 4242 4242', cardVerificationValue: '321' }),
      card({ primaryAccountNumber: '5555555555554444' }),
    ]) {
      const res = await tokenize(org, body);
      expect(res.status).toBe(201);
      ids.push(res.json.data.id as string);
    }
    const [a, b, c] = await Promise.all(ids.map((id) => readToken(org.organizationId, id)));
    expect(a!.fingerprint).toBe(b!.fingerprint);
    expect(a!.fingerprint).not.toBe(c!.fingerprint);
    expect(a!.fingerprint).toBe(
      createHmac('sha256', (await getSecretString(process.env.CARD_FINGERPRINT_KEY_ARN!))!)
        .update(`card-fingerprint:v1:${VISA}`)
        .digest('base64url'),
    );
    expect(a!.processorReference).not.toBe(b!.processorReference);
  });

  it.each(sandboxTestCards.map((c) => [c.description, c] as const))('vaults the test card "%s" with its behaviour', async (_d, test) => {
    const org = await organizationAccount();
    const cvc = test.brand === 'american-express' ? '1234' : '123';
    const res = await tokenize(org, card({ primaryAccountNumber: test.number, cardVerificationValue: cvc }));
    expect(res.status).toBe(201);
    const token = await readToken(org.organizationId, res.json.data.id);
    expect(token).toMatchObject({ brand: test.brand, last4: normalizeCardNumber(test.number).slice(-4) });
    expect((await getSandboxCard(token!.processorReference))?.behaviour).toBe(test.behaviour);
  });

  it.each([
    ['a number that fails the Luhn check', card({ primaryAccountNumber: '4242424242424241' }), 'card.invalid_number', 'primaryAccountNumber'],
    ['a number of no known brand', card({ primaryAccountNumber: withCheckDigit('999999999999999') }), 'card.invalid_number', 'primaryAccountNumber'],
    ['a number with letters', card({ primaryAccountNumber: '4242-abcd-4242-4242' }), 'card.invalid_number', 'primaryAccountNumber'],
    ['an expired card', card({ expirationMonth: 1, expirationYear: 2020 }), 'card.expired', 'expirationYear'],
    ['month 13', card({ expirationMonth: 13 }), 'card.invalid_expiry', 'expirationMonth'],
    ['a two-digit year', card({ expirationYear: 30 }), 'card.invalid_expiry', 'expirationYear'],
    [
      'a 3-digit code on an American Express card',
      card({ primaryAccountNumber: AMEX, cardVerificationValue: '123' }),
      'card.invalid_cvc',
      'cardVerificationValue',
    ],
    ['a 4-digit code on a Visa', card({ cardVerificationValue: '1234' }), 'card.invalid_cvc', 'cardVerificationValue'],
  ])('refuses %s with 400, naming the field, without repeating the number, and creates nothing', async (_what, body, errorCode, field) => {
    const org = await organizationAccount();
    const res = await tokenize(org, body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ errorCode, statusCode: 400, message: expect.any(String) });
    expect(res.json.details).toBe(`field: ${field}`);
    expect(res.text).not.toContain(normalizeCardNumber(body.primaryAccountNumber as string));
    expect((await list(org)).json.totalCount).toBe(0);
  });

  it.each([
    ['a number sent as a number', card({ primaryAccountNumber: Number(VISA) }), 'primaryAccountNumber'],
    ['a month sent as a string', card({ expirationMonth: '12' }), 'expirationMonth'],
    ['a fractional year', card({ expirationYear: 2030.5 }), 'expirationYear'],
    ['a missing code', (({ cardVerificationValue: _c, ...rest }) => rest)(card()), 'cardVerificationValue'],
    ['an unknown field', card({ cardholderName: 'Ada' }), 'cardholderName'],
  ])('refuses %s with 400 request.validation_failed and creates nothing', async (_what, body, field) => {
    const org = await organizationAccount();
    const res = await tokenize(org, body);
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('request.validation_failed');
    expect(res.json.message).toMatch(new RegExp(`^${field}: `));
    expect(res.text).not.toContain(VISA);
    expect((await list(org)).json.totalCount).toBe(0);
  });

  it('refuses a valid card of a brand the processor does not take with 422 card.brand_not_supported', async () => {
    const org = await organizationAccount();
    const mir = withCheckDigit('220000000000000');
    const res = await tokenize(org, card({ primaryAccountNumber: mir }));
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({ errorCode: 'card.brand_not_supported', details: 'brand: mir' });
    expect(res.text).not.toContain(mir);
    expect((await list(org)).json.totalCount).toBe(0);
  });

  it('answers 401 without a key and 403 for an organization the account is not linked to', async () => {
    const [org, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    expect((await orgCall('POST', tokens(org), { body: card() })).json.errorCode).toBe('auth.missing_api_key');
    const foreign = await orgCall('POST', tokens(org), { fullKey: other.fullKey, body: card() });
    expect(foreign.status).toBe(403);
    expect(foreign.json.errorCode).toBe('forbidden');
    expect((await list(org)).json.totalCount).toBe(0);
  });

  it('exists on the sandbox deployment only; token list, token get and payment methods exist on both', () => {
    const path = '/api/v1/public-api/organizations/3f1d8a52-2d1e-4c57-9a55-0d7c7c3d9a11/payment-instruments/tokens';
    const live = routeMatcher(routesFor('live'));
    const sandbox = routeMatcher(routesFor('sandbox'));
    expect(live.match('POST', path)).toBeNull();
    expect(sandbox.match('POST', path)?.route.name).toBe('payment-instrument-tokens-create');
    for (const m of [live, sandbox]) {
      expect(m.match('GET', path)?.route.name).toBe('payment-instrument-tokens-list');
      expect(m.match('GET', `${path}/tok_${'A'.repeat(24)}`)?.route.name).toBe('payment-instrument-tokens-get');
      expect(m.match('GET', path.replace('payment-instruments/tokens', 'payment-methods'))?.route.name).toBe('payment-methods-get');
    }
  });
});

describe('tokens on a deployment without a processor', () => {
  const stage = process.env.STAGE;
  afterEach(() => {
    process.env.STAGE = stage;
  });

  it('refuse to tokenize on live with 503 payments.processor_unavailable and write nothing', async () => {
    const org = await organizationAccount();
    process.env.STAGE = 'live';
    const error = await createCardToken(org.organizationId, { number: VISA, cvc: '123', expMonth: 12, expYear: nextYear }).catch((e: unknown) => e);
    process.env.STAGE = stage;
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ status: 503, code: 'payments.processor_unavailable' });
    expect((await list(org)).json.totalCount).toBe(0);
  });

  it('offer no payment method on live', () => {
    process.env.STAGE = 'live';
    expect(availablePaymentMethods(randomUUID())).toEqual({ data: { paymentMethods: [], creditCardBrand: [] } });
  });
});

describe('token list and get', () => {
  /** Tokens made at fixed past times (one minute apart from `start`), oldest first. */
  async function tokensAt(org: Org, start: string, count: number) {
    const made = [];
    for (let i = 0; i < count; i++) {
      made.push(
        await createCardToken(org.organizationId, { number: VISA, cvc: '123', expMonth: 12, expYear: nextYear }, new Date(Date.parse(start) + i * 60_000)),
      );
    }
    return made;
  }
  const ids = (res: { json: { data: Array<{ id: string }> } }) => res.json.data.map((t) => t.id);

  it("lists the organization's tokens newest first with the total count, in the list envelope", async () => {
    const org = await organizationAccount();
    const made = await tokensAt(org, '2025-03-01T10:00:00.000Z', 3);
    const res = await list(org);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      type: 'list',
      totalCount: 3,
      paginationMeta: { limit: 20, offset: 0 },
      data: made.reverse().map((t) => ({ id: t.id, createdAt: t.createdAt, expiratedAt: t.expiratedAt })),
    });
  });

  it('pages with limit and offset, sorts ascending on request and filters by creation time', async () => {
    const org = await organizationAccount();
    const [t0, t1, t2, t3] = await tokensAt(org, '2025-04-01T10:00:00.000Z', 4);
    expect(ids(await list(org, '?limit=2&offset=1'))).toEqual([t2!.id, t1!.id]);
    expect(ids(await list(org, '?sortDirection=asc&limit=3'))).toEqual([t0!.id, t1!.id, t2!.id]);
    const ranged = await list(org, `?createdFrom=${t1!.createdAt}&createdTo=${t2!.createdAt}`);
    expect(ranged.json.totalCount).toBe(2);
    expect(ids(ranged)).toEqual([t2!.id, t1!.id]);
    const none = await list(org, '?limit=0');
    expect(none.json).toMatchObject({ totalCount: 4, data: [], paginationMeta: { limit: 0, offset: 0 } });
    expect(ids(await list(org, '?offset=4'))).toEqual([]);
    expect(t3).toBeDefined();
  });

  it.each([
    ['limit=101', 'limit'],
    ['offset=-1', 'offset'],
    ['sortDirection=up', 'sortDirection'],
    ['createdFrom=yesterday', 'createdFrom'],
    ['createdFrom=2025-02-01T00:00:00Z&createdTo=2025-01-01T00:00:00Z', 'createdTo'],
    ['sortBy=updatedAt', 'sortBy'],
  ])('refuses the query %s with 400 request.invalid_query', async (query, field) => {
    const org = await organizationAccount();
    const res = await list(org, `?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.errorCode).toBe('request.invalid_query');
    expect(res.json.message).toMatch(new RegExp(`^${field}: `));
  });

  it("keeps each organization's tokens to itself: another organization's token is 404, and not in its list", async () => {
    const [org, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    const mine = (await tokenize(org)).json.data.id as string;
    const res = await get(other, mine);
    expect(res.status).toBe(404);
    expect(res.json.errorCode).toBe('card_token.not_found');
    expect((await list(other)).json.totalCount).toBe(0);
    for (const id of [`tok_${'A'.repeat(24)}`, 'tok_nope', 'nope']) {
      expect((await get(org, id)).json.errorCode).toBe('card_token.not_found');
    }
  });

  it('still reads a used or expired token', async () => {
    const org = await organizationAccount();
    const [old] = await tokensAt(org, '2025-01-01T00:00:00.000Z', 1);
    expect((await get(org, old!.id)).json.data).toEqual({ id: old!.id, createdAt: old!.createdAt, expiratedAt: old!.expiratedAt });
  });
});

describe('single use and expiry', () => {
  const use = (org: Org, id: string, now: string): NamedParts<'token'> => [['token', [consumeCardToken(org.organizationId, id, now)]]];
  const useNow = (org: Org, id: string, now = new Date().toISOString()) => transactWrite(use(org, id, now));

  it('lets exactly one of two racing transactions use a token; the other learns it was used (409)', async () => {
    const org = await organizationAccount();
    const id = (await tokenize(org)).json.data.id as string;
    const now = new Date().toISOString();
    const outcomes = await Promise.allSettled([useNow(org, id, now), useNow(org, id, now)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [lost] = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    const error = cardTokenTransactionError(lost!.reason, use(org, id, now), 'token', org.organizationId, now);
    expect(error).toMatchObject({ status: 409, code: 'card_token.already_used' });
    expect((await readToken(org.organizationId, id))!.consumedAt).toBe(now);
    await expect(getUsableCardToken(org.organizationId, id)).rejects.toMatchObject({ status: 409, code: 'card_token.already_used' });
  });

  it('refuses a third use after a first one', async () => {
    const org = await organizationAccount();
    const id = (await tokenize(org)).json.data.id as string;
    await useNow(org, id);
    const later = new Date().toISOString();
    const error = await useNow(org, id, later).catch((e: unknown) => cardTokenTransactionError(e, use(org, id, later), 'token', org.organizationId, later));
    expect(error).toMatchObject({ status: 409, code: 'card_token.already_used' });
  });

  it('refuses a token at and after its expiry with 422 card_token.expired, and leaves it unused', async () => {
    const org = await organizationAccount();
    const res = await tokenize(org);
    const { id, expiratedAt } = res.json.data as { id: string; expiratedAt: string };
    for (const now of [expiratedAt, new Date(Date.parse(expiratedAt) + 1).toISOString()]) {
      const error = await useNow(org, id, now).catch((e: unknown) => cardTokenTransactionError(e, use(org, id, now), 'token', org.organizationId, now));
      expect(error).toMatchObject({ status: 422, code: 'card_token.expired' });
      await expect(getUsableCardToken(org.organizationId, id, now)).rejects.toMatchObject({ status: 422, code: 'card_token.expired' });
    }
    expect((await readToken(org.organizationId, id))!.consumedAt).toBeNull();
    // A millisecond before it expires, it is still good.
    await useNow(org, id, new Date(Date.parse(expiratedAt) - 1).toISOString());
  });

  it("refuses another organization's token and an unknown one as not found (404)", async () => {
    const [org, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    const id = (await tokenize(org)).json.data.id as string;
    const now = new Date().toISOString();
    for (const [who, tokenId] of [
      [other, id],
      [org, `tok_${'B'.repeat(24)}`],
    ] as const) {
      const error = await useNow(who, tokenId, now).catch((e: unknown) =>
        cardTokenTransactionError(e, use(who, tokenId, now), 'token', who.organizationId, now),
      );
      expect(error).toMatchObject({ status: 404, code: 'card_token.not_found' });
    }
    expect((await readToken(org.organizationId, id))!.consumedAt).toBeNull();
  });
});

describe('available payment methods', () => {
  it('answers what the sandbox processor takes: cards, of the brands it accepts', async () => {
    const org = await organizationAccount();
    const res = await orgCall('GET', `${orgPath(org.organizationId)}/payment-methods`, { fullKey: org.fullKey });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: {
        paymentMethods: ['payment-card'],
        creditCardBrand: ['visa', 'mastercard', 'american-express', 'discover', 'diners-club', 'jcb', 'unionpay', 'maestro'],
      },
    });
  });

  it('answers 403 for an organization the account is not linked to', async () => {
    const [org, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    const res = await orgCall('GET', `${orgPath(org.organizationId)}/payment-methods`, { fullKey: other.fullKey });
    expect(res.status).toBe(403);
  });
});
