/**
 * Transactions through the local gateway: `POST /api/transactions` (charge, decline, processor error,
 * idempotency with its race and takeover, the organization choice, validation) and the transaction list with each
 * filter and sort. Test titles never hold card numbers (the run's output is searched for them).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { createCardToken, getCardToken } from '../../../shared/customers/card-tokens.repository.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import { getCustomer } from '../../../shared/customers/customers.repository.ts';
import { getIdempotencyRecord, putIdempotencyClaim } from '../../../shared/platform/db/idempotency.ts';
import { getBalance, listJournals } from '../../../shared/money/ledger.repository.ts';
import { getMerchant } from '../../../shared/people/merchants.repository.ts';
import { getPaymentInstrument } from '../../../shared/customers/payment-instruments.repository.ts';
import type { Transaction } from '../../../shared/payments/transaction.entity.ts';
import { getTransaction, listTransactionSortFields, putNewTransaction } from '../../../shared/payments/transactions.repository.ts';
import { DomainError } from '../../../shared/domain/errors.ts';
import { processorIdempotencyKey, requestFingerprint } from '../../../shared/payments/transactions.rules.ts';
import { processorFor } from '../../../shared/processor/registry.ts';
import { sandboxChargesOf } from '../../../shared/processor/sandbox-processor.ts';
import { createTransaction } from '../../../shared/payments/transactions.service.ts';
import { createDestination as createMerchantDestination } from '../../../shared/webhooks/webhooks.service.ts';
import { verifyWebhook } from '../../../shared/webhooks/verify.ts';
import { nextYear } from '../../support/dates.ts';
import { testCards } from '../../support/cards.ts';
import { cardToken, NO_TAX_PLACE, organizationAccount, orgCall, orgPath, uniqueEmail } from '../../support/fixtures.ts';
import { eventually, startReceiver } from '../../support/receiver.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

type CardName = keyof typeof testCards;

/** `POST /api/transactions` (the helpers' paths are relative to `/api`). */
const TX = '/transactions';
/** A charge; an object body naming no `billingAddress` is a buyer's in Oregon (no sales tax: the amount less the fee is the merchant's). */
const pay = (org: { fullKey: string }, body: unknown) =>
  orgCall('POST', TX, { fullKey: org.fullKey, body: isPlainObject(body) && !('billingAddress' in body) ? { ...body, billingAddress: NO_TAX_PLACE } : body });
const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const transactions = (org: Pick<Org, 'organizationId'>) => `${orgPath(org.organizationId)}/transactions`;
const list = (org: Pick<Org, 'organizationId' | 'fullKey'>, query = '', fullKey = org.fullKey) => orgCall('GET', `${transactions(org)}${query}`, { fullKey });

async function newCustomer(org: Org, body: Record<string, unknown> = {}): Promise<string> {
  const res = await orgCall('POST', `${orgPath(org.organizationId)}/customers`, { fullKey: org.fullKey, body: { email: uniqueEmail('buyer'), ...body } });
  if (res.status !== 201) throw new Error(`customer creation failed: ${res.status} ${res.text}`);
  return res.json.data.id as string;
}

/** A customer with an attached card; returns the instrument's id and the processor's reference of the card. */
async function cardOnFile(org: Org, card: CardName = 'succeeds', customer: Record<string, unknown> = {}) {
  const customerId = await newCustomer(org, customer);
  const token = await cardToken(org, testCards[card]);
  const res = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customerId}/payment-instruments`, { fullKey: org.fullKey, body: { token } });
  if (res.status !== 201) throw new Error(`attach failed: ${res.status} ${res.text}`);
  const instrument = (await getPaymentInstrument(org.organizationId, res.json.data.id))!;
  return { customerId, paymentInstrumentId: instrument.id, reference: instrument.processorReference };
}

const key = () => `order-${randomUUID()}`;
const totalOf = async (org: Pick<Org, 'organizationId' | 'fullKey'>) => (await list(org)).json.totalCount as number;

const receivers: Array<{ close: () => Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});
async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}
const bodyOf = (r: { rawBody: Buffer }) => JSON.parse(r.rawBody.toString('utf8')) as Record<string, unknown>;

describe('POST /api/transactions: charging a card', () => {
  it("charges an attached card: 201 with the completed transaction, one charge at the processor, and the customer's revenue counted", async () => {
    const org = await organizationAccount();
    const card = await cardOnFile(org, 'succeeds', { firstName: 'Grace', lastName: 'Hopper' });
    const idempotencyKey = key();

    const res = await pay(org, { idempotencyKey, amount: 12.5, currency: 'USD', description: 'Pro plan', paymentInstrumentId: card.paymentInstrumentId });

    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      type: 'object',
      data: {
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        organizationId: org.organizationId,
        status: 'completed',
        amount: 12.5,
        currency: 'USD',
        tax: 0,
        description: 'Pro plan',
        customerId: card.customerId,
        customerName: 'Grace Hopper',
        paymentInstrumentId: card.paymentInstrumentId,
        paymentMethod: 'payment-card',
        paymentType: 'sale',
        gatewayName: 'sandbox',
        creditCard: { brand: 'visa', creditCardLastFourDigits: '4242', expireMonth: 12, expireYear: nextYear },
        externalTransactionId: expect.stringMatching(/^pay_[A-Za-z0-9]{24}$/),
        declineReason: null,
        orderId: null,
        subscriptionId: null,
        idempotencyKey,
        isTestData: true,
        processedAt: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: res.json.data.processedAt,
      },
    });
    const charges = await sandboxChargesOf(card.reference);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ id: res.json.data.externalTransactionId, amountMinor: 1250, currency: 'USD', description: 'Pro plan' });
    const customer = await getCustomer(org.organizationId, card.customerId);
    expect(customer?.revenue).toEqual({ USD: 1250 });
    expect(customer?.lastPaymentTime).toBe(res.json.data.processedAt);
    const listed = await list(org);
    expect(listed.json.totalCount).toBe(1);
    expect(listed.json.data[0]).toEqual(res.json.data);
  });

  it('records a card charge as payment-card whatever method its instrument is labelled with', async () => {
    const org = await organizationAccount();
    const card = await cardOnFile(org);
    const relabelled = await orgCall('PATCH', `${orgPath(org.organizationId)}/payment-instruments/${card.paymentInstrumentId}`, {
      fullKey: org.fullKey,
      body: { method: 'ach' },
    });
    expect(relabelled.status, relabelled.text).toBe(200);
    const res = await pay(org, { idempotencyKey: key(), amount: 5, currency: 'USD', paymentInstrumentId: card.paymentInstrumentId });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ paymentMethod: 'payment-card', creditCard: { creditCardLastFourDigits: '4242' } });
  });

  it('pays with a token for a customer it makes; the merchant destination receives signed payment.completed and customer.created, the account destination transaction-processed with basic auth', async () => {
    const org = await organizationAccount();
    const merchantReceiver = await receiver();
    const accountReceiver = await receiver();
    const merchantDestination = await createMerchantDestination((await getMerchant(org.organizationId))!, {
      url: merchantReceiver.url,
      eventTypes: ['payment.completed', 'customer.created'],
    });
    const accountDestination = await orgCall('POST', '/v1/webhook-destinations', {
      fullKey: org.fullKey,
      body: { url: accountReceiver.url, auth: { type: 'basic', username: 'hooks', password: 'hook-password-1' }, eventTypes: ['transaction-processed'] },
    });
    expect(accountDestination.status).toBe(201);
    const token = await cardToken(org);
    const email = uniqueEmail('Ada');

    const res = await pay(org, {
      idempotencyKey: key(),
      amount: 1999,
      currency: 'JPY',
      token,
      customer: { email, firstName: 'Ada', lastName: 'Lovelace' },
    });

    expect(res.status).toBe(201);
    const t = res.json.data;
    expect(t).toMatchObject({ status: 'completed', amount: 1999, currency: 'JPY', paymentInstrumentId: null, customerName: 'Ada Lovelace', description: null });
    expect((await getCardToken(org.organizationId, token))?.consumedAt).toBe(t.createdAt);
    const customer = (await getCustomer(org.organizationId, t.customerId))!;
    expect(customer).toMatchObject({
      email: email.toLowerCase(),
      firstName: 'Ada',
      lastName: 'Lovelace',
      revenue: { JPY: 1999 },
      lastPaymentTime: t.processedAt,
    });

    const got = await eventually(() => (merchantReceiver.received.length >= 2 ? merchantReceiver.received : undefined), 25_000, 'both merchant deliveries');
    for (const r of got) {
      expect(
        verifyWebhook({ rawBody: r.rawBody, headers: r.headers as Record<string, string>, secret: merchantDestination.secret, toleranceSeconds: 300 }).ok,
      ).toBe(true);
    }
    const bodies = got.map(bodyOf);
    expect(bodies).toContainEqual({
      transactionId: t.id,
      externalTransactionId: t.externalTransactionId,
      amount: 1999,
      currency: 'jpy',
      occurredAt: t.processedAt,
      orderId: null,
      customerId: t.customerId,
      subscriptionId: null,
      merchantId: org.organizationId,
    });
    expect(bodies).toContainEqual({ customerId: t.customerId, email: email.toLowerCase(), merchantId: org.organizationId });

    const processed = await eventually(() => accountReceiver.received[0], 25_000, 'the account delivery');
    expect(processed.headers.authorization).toBe(`Basic ${Buffer.from('hooks:hook-password-1').toString('base64')}`);
    expect(
      verifyWebhook({
        rawBody: processed.rawBody,
        headers: processed.headers as Record<string, string>,
        secret: accountDestination.json.data.secret,
        toleranceSeconds: 300,
      }).ok,
    ).toBe(true);
    expect(bodyOf(processed)).toMatchObject({
      type: 'transaction-processed',
      organizationId: org.organizationId,
      data: {
        transactionId: t.id,
        externalTransactionId: t.externalTransactionId,
        status: 'completed',
        amount: 1999,
        currency: 'JPY',
        declineReason: null,
        customerId: t.customerId,
      },
    });
  });

  it('answers a declined card with 402 payment.declined naming the reason, records the transaction declined, and sends payment.failed and transaction-declined', async () => {
    const org = await organizationAccount();
    const merchantReceiver = await receiver();
    const accountReceiver = await receiver();
    await createMerchantDestination((await getMerchant(org.organizationId))!, {
      url: merchantReceiver.url,
      eventTypes: ['payment.failed', 'payment.completed'],
    });
    expect(
      (await orgCall('POST', '/v1/webhook-destinations', { fullKey: org.fullKey, body: { url: accountReceiver.url, eventTypes: ['transaction-declined'] } }))
        .status,
    ).toBe(201);
    const card = await cardOnFile(org, 'insufficientFunds');
    const idempotencyKey = key();

    const res = await pay(org, { idempotencyKey, amount: 30, currency: 'EUR', paymentInstrumentId: card.paymentInstrumentId });

    expect(res.status).toBe(402);
    expect(res.json.errorCode).toBe('payment.declined');
    expect(res.json.message).toBe('The payment was declined: The card has insufficient funds.');
    const transactionId = /transactionId: (\S+)/.exec(res.json.details)?.[1];
    expect(res.json.details).toContain('declineCode: insufficient_funds');
    const recorded = (await getTransaction(org.organizationId, transactionId!))!;
    expect(recorded).toMatchObject({
      status: 'declined',
      declineReason: { code: 'insufficient_funds', message: 'The card has insufficient funds.' },
      amountMinor: 3000,
    });
    expect(recorded.externalTransactionId).toMatch(/^pay_/);
    const customer = (await getCustomer(org.organizationId, card.customerId))!;
    expect(customer.revenue).toEqual({});
    expect(customer.lastPaymentTime).toBeNull();

    const failed = await eventually(() => merchantReceiver.received[0], 25_000, 'payment.failed');
    expect(bodyOf(failed)).toEqual({
      transactionId,
      externalTransactionId: recorded.externalTransactionId,
      occurredAt: recorded.processedAt,
      orderId: null,
      customerId: card.customerId,
      subscriptionId: null,
      merchantId: org.organizationId,
    });
    const declined = await eventually(() => accountReceiver.received[0], 25_000, 'transaction-declined');
    expect(bodyOf(declined)).toMatchObject({
      type: 'transaction-declined',
      data: { transactionId, status: 'declined', amount: 30, currency: 'EUR', declineReason: 'insufficient_funds', customerId: card.customerId },
    });

    const again = await pay(org, { idempotencyKey, amount: 30, currency: 'EUR', paymentInstrumentId: card.paymentInstrumentId });
    expect(again.status).toBe(402);
    expect(again.json).toEqual(res.json);
    expect(await sandboxChargesOf(card.reference)).toHaveLength(1);
    expect(merchantReceiver.received).toHaveLength(1);
  });

  it.each([
    ['genericDecline', 'generic_decline', 'The card was declined.'],
    ['expiredCard', 'expired_card', 'The card has expired.'],
  ] as const)('answers the %s test card with 402 and its decline code', async (card, code, reason) => {
    const org = await organizationAccount();
    const res = await pay(org, { idempotencyKey: key(), amount: 1, currency: 'USD', token: await cardToken(org, testCards[card]) });
    expect(res.status).toBe(402);
    expect(res.json).toMatchObject({ errorCode: 'payment.declined', statusCode: 402, message: `The payment was declined: ${reason}` });
    expect(res.json.details).toContain(`declineCode: ${code}`);
    expect((await list(org, '?combinedStatuses=declined')).json.totalCount).toBe(1);
  });

  it('answers a processing error with 502 payment.processor_error, records the transaction declined, and replays the same 502', async () => {
    const org = await organizationAccount();
    const card = await cardOnFile(org, 'processingError');
    const body = { idempotencyKey: key(), amount: 5, currency: 'USD', paymentInstrumentId: card.paymentInstrumentId };

    const res = await pay(org, body);

    expect(res.status).toBe(502);
    expect(res.json.errorCode).toBe('payment.processor_error');
    expect(res.json.details).toContain('errorCode: processing_error');
    const [t] = (await list(org)).json.data;
    expect(t).toMatchObject({ status: 'declined', declineReason: { code: 'processing_error' } });
    const again = await pay(org, body);
    expect(again.status).toBe(502);
    expect(again.json).toEqual(res.json);
    expect(await sandboxChargesOf(card.reference)).toHaveLength(1);
  });
});

describe('POST /api/transactions on the live deployment', () => {
  // Changes this worker's STAGE for a moment (and back).
  it('refuses to charge on the live deployment without a processor: 503 payments.processor_unavailable, and writes nothing', async () => {
    expect(() => processorFor('live', {})).toThrow(expect.objectContaining({ status: 503, code: 'payments.processor_unavailable' }));

    const org = await organizationAccount();
    const organization = (await getMerchant(org.organizationId))!;
    const idempotencyKey = key();
    const saved = { STAGE: process.env.STAGE, LIVE_USES_SANDBOX_PROCESSOR: process.env.LIVE_USES_SANDBOX_PROCESSOR };
    process.env.STAGE = 'live';
    delete process.env.LIVE_USES_SANDBOX_PROCESSOR;
    let refusal: unknown;
    try {
      await createTransaction(
        // A merchant that has gone live (one that has not is refused before: 403 merchant.not_live).
        { ...organization, mode: 'live', liveAt: new Date().toISOString() },
        { idempotencyKey, amount: 10, currency: 'USD', paymentInstrumentId: `inst_${'0'.repeat(32)}` },
      );
    } catch (e) {
      refusal = e;
    } finally {
      process.env.STAGE = saved.STAGE;
      if (saved.LIVE_USES_SANDBOX_PROCESSOR !== undefined) process.env.LIVE_USES_SANDBOX_PROCESSOR = saved.LIVE_USES_SANDBOX_PROCESSOR;
    }
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ status: 503, code: 'payments.processor_unavailable' });
    expect(await getIdempotencyRecord(org.organizationId, 'transactions', idempotencyKey)).toBeNull();
    expect(await totalOf(org)).toBe(0);
  });
});

describe('POST /api/transactions: idempotency', () => {
  it('replays the first answer for a repeat of the request (fields in any order): same status and body, no second transaction or charge', async () => {
    const org = await organizationAccount();
    const card = await cardOnFile(org);
    const idempotencyKey = key();

    const first = await pay(org, { idempotencyKey, amount: 42, currency: 'USD', description: 'Seats', paymentInstrumentId: card.paymentInstrumentId });
    const repeat = await pay(org, { paymentInstrumentId: card.paymentInstrumentId, description: 'Seats', currency: 'USD', amount: 42, idempotencyKey });

    expect(first.status).toBe(201);
    expect(repeat.status).toBe(201);
    expect(repeat.json).toEqual(first.json);
    expect(await totalOf(org)).toBe(1);
    expect(await sandboxChargesOf(card.reference)).toHaveLength(1);
    expect((await getCustomer(org.organizationId, card.customerId))?.revenue).toEqual({ USD: 4200 });
  });

  it('replays a payment that made its customer without making another customer or using another token', async () => {
    const org = await organizationAccount();
    const body = { idempotencyKey: key(), amount: 3, currency: 'USD', token: await cardToken(org), customer: { email: uniqueEmail('once') } };
    const first = await pay(org, body);
    const repeat = await pay(org, body);
    expect(first.status).toBe(201);
    expect(repeat.json).toEqual(first.json);
    const customers = await orgCall('GET', `${orgPath(org.organizationId)}/customers`, { fullKey: org.fullKey });
    expect(customers.json.totalCount).toBe(1);
  });

  it('refuses the key with a different request with 422 idempotency.key_reused, and charges and records nothing more', async () => {
    const org = await organizationAccount();
    const card = await cardOnFile(org);
    const idempotencyKey = key();
    const first = await pay(org, { idempotencyKey, amount: 10, currency: 'USD', paymentInstrumentId: card.paymentInstrumentId });
    expect(first.status).toBe(201);

    for (const changed of [{ amount: 11 }, { currency: 'EUR' }, { description: 'other' }]) {
      const res = await pay(org, { idempotencyKey, amount: 10, currency: 'USD', paymentInstrumentId: card.paymentInstrumentId, ...changed });
      expect(res.status).toBe(422);
      expect(res.json.errorCode).toBe('idempotency.key_reused');
    }
    expect(await totalOf(org)).toBe(1);
    expect(await sandboxChargesOf(card.reference)).toHaveLength(1);
  });

  it('keeps keys per organization: one key in two organizations makes two transactions', async () => {
    const [a, b] = await Promise.all([organizationAccount(), organizationAccount()]);
    const idempotencyKey = key();
    const [ra, rb] = await Promise.all([
      pay(a, { idempotencyKey, amount: 1, currency: 'USD', token: await cardToken(a) }),
      pay(b, { idempotencyKey, amount: 1, currency: 'USD', token: await cardToken(b) }),
    ]);
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(ra.json.data.id).not.toBe(rb.json.data.id);
  });

  it('takes an idempotencyKey of 100 characters and refuses 101 (and a missing or empty one) with 400, changing nothing', async () => {
    const org = await organizationAccount();
    const card = await cardOnFile(org);
    const base = { amount: 1, currency: 'USD', paymentInstrumentId: card.paymentInstrumentId };

    for (const idempotencyKey of ['k'.repeat(101), '', undefined]) {
      const res = await pay(org, { ...base, idempotencyKey });
      expect(res.status).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
      expect(res.json.details).toContain('idempotencyKey');
    }
    expect(await totalOf(org)).toBe(0);
    expect(await sandboxChargesOf(card.reference)).toHaveLength(0);

    const atLimit = await pay(org, { ...base, idempotencyKey: 'k'.repeat(100) });
    expect(atLimit.status).toBe(201);
    expect(atLimit.json.data.idempotencyKey).toBe('k'.repeat(100));
  });

  it('makes one charge when ten requests with one key race: each answers the one result or 409 idempotency.in_progress, and a later repeat answers the result', async () => {
    const org = await organizationAccount();
    const card = await cardOnFile(org);
    const body = { idempotencyKey: key(), amount: 99.99, currency: 'USD', paymentInstrumentId: card.paymentInstrumentId };

    const answers = await Promise.all(Array.from({ length: 10 }, () => pay(org, body)));

    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const successes = answers.filter((a) => a.status === 201);
    expect(successes.length).toBeGreaterThanOrEqual(1);
    for (const s of successes) expect(s.json).toEqual(successes[0]!.json);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.json.errorCode).toBe('idempotency.in_progress');
    expect(await sandboxChargesOf(card.reference)).toHaveLength(1);
    expect(await totalOf(org)).toBe(1);
    expect((await getCustomer(org.organizationId, card.customerId))?.revenue).toEqual({ USD: 9999 });

    const later = await pay(org, body);
    expect(later.status).toBe(201);
    expect(later.json).toEqual(successes[0]!.json);
  });

  /** The state an attempt leaves when it dies after its claim: the idempotency record `processing` and the transaction `sending`. */
  async function claimLeftBehind(
    org: Org,
    card: Awaited<ReturnType<typeof cardOnFile>>,
    body: { idempotencyKey: string; amount: number; currency: string; paymentInstrumentId: string; billingAddress: typeof NO_TAX_PLACE },
    lockedUntil: string,
  ) {
    const now = new Date(Date.now() - 60_000).toISOString();
    const instrument = (await getPaymentInstrument(org.organizationId, card.paymentInstrumentId))!;
    const transaction: Transaction = {
      id: uuidv7(),
      organizationId: org.organizationId,
      status: 'sending',
      amountMinor: Math.round(body.amount * 100),
      currency: body.currency,
      description: null,
      customerId: card.customerId,
      customerName: null,
      customerEmail: null,
      paymentInstrumentId: instrument.id,
      tokenId: null,
      paymentMethod: 'payment-card',
      paymentType: 'sale',
      gatewayName: 'sandbox',
      card: {
        brand: instrument.creditCard!.brand,
        last4: instrument.creditCard!.last4,
        expMonth: instrument.creditCard!.expMonth,
        expYear: instrument.creditCard!.expYear,
      },
      processorReference: instrument.processorReference,
      externalTransactionId: null,
      declineReason: null,
      subscriptionId: null,
      orderId: null,
      planId: null,
      checkout: null,
      idempotencyKey: body.idempotencyKey,
      isTestData: true,
      processedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    await transactWrite([
      [
        'idempotency',
        [
          putIdempotencyClaim({
            organizationId: org.organizationId,
            operation: 'transactions',
            key: body.idempotencyKey,
            requestHash: requestFingerprint(body),
            state: 'processing',
            attemptId: randomUUID(),
            lockedUntil,
            resourceId: transaction.id,
            answer: null,
            createdAt: now,
            updatedAt: now,
          }),
        ],
      ],
      ['transaction', [putNewTransaction(transaction)]],
    ]);
    return transaction;
  }

  it('takes over a claim whose attempt died after charging, once its lock has passed: the processor answers the one charge it made, and the transaction completes', async () => {
    const org = await organizationAccount();
    const card = await cardOnFile(org);
    const body = { idempotencyKey: key(), amount: 15, currency: 'USD', paymentInstrumentId: card.paymentInstrumentId, billingAddress: NO_TAX_PLACE };
    const left = await claimLeftBehind(org, card, body, new Date(Date.now() - 1000).toISOString());
    // The dead attempt had reached the processor.
    const charged = await processorFor('sandbox').charge({
      reference: card.reference,
      amountMinor: 1500,
      currency: 'USD',
      idempotencyKey: processorIdempotencyKey(org.organizationId, 'transactions', body.idempotencyKey),
    });

    const res = await pay(org, body);

    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ id: left.id, status: 'completed', externalTransactionId: charged.externalTransactionId, createdAt: left.createdAt });
    expect(await sandboxChargesOf(card.reference)).toHaveLength(1);
    expect(await totalOf(org)).toBe(1);
    expect((await pay(org, body)).json).toEqual(res.json);
  });

  it('answers 409 idempotency.in_progress while another attempt holds the key, and leaves its claim alone', async () => {
    const org = await organizationAccount();
    const card = await cardOnFile(org);
    const body = { idempotencyKey: key(), amount: 15, currency: 'USD', paymentInstrumentId: card.paymentInstrumentId, billingAddress: NO_TAX_PLACE };
    const left = await claimLeftBehind(org, card, body, new Date(Date.now() + 60_000).toISOString());
    const before = await getIdempotencyRecord(org.organizationId, 'transactions', body.idempotencyKey);

    const res = await pay(org, body);

    expect(res.status).toBe(409);
    expect(res.json.errorCode).toBe('idempotency.in_progress');
    expect(await getIdempotencyRecord(org.organizationId, 'transactions', body.idempotencyKey)).toEqual(before);
    expect((await getTransaction(org.organizationId, left.id))?.status).toBe('sending');
    expect(await sandboxChargesOf(card.reference)).toHaveLength(0);
    const other = await pay(org, { ...body, amount: 16 });
    expect(other.status).toBe(422);
  });
});

describe('POST /api/transactions: what the body refers to', () => {
  it('refuses malformed bodies with 400 request.validation_failed and changes nothing', async () => {
    const org = await organizationAccount();
    const card = await cardOnFile(org);
    const token = await cardToken(org);
    const ok = { idempotencyKey: key(), amount: 10, currency: 'USD', paymentInstrumentId: card.paymentInstrumentId };
    const { paymentInstrumentId: _p, ...withoutSource } = ok;
    const bad: Array<[string, Record<string, unknown>]> = [
      ['paymentInstrumentId', withoutSource],
      ['token', { ...ok, token }],
      ['customer', { ...ok, customerId: card.customerId, customer: { email: uniqueEmail() } }],
      ['amount', { ...ok, amount: 0 }],
      ['amount', { ...ok, amount: -1 }],
      ['amount', { ...ok, amount: 10.001 }],
      ['amount', { ...ok, currency: 'JPY', amount: 10.5 }],
      ['amount', { ...ok, amount: '10' }],
      // Past the most one charge takes (a sum the ledger keeps of such amounts would no longer be exact).
      ['amount', { ...ok, amount: 10_000_000.01 }],
      ['amount', { ...ok, currency: 'JPY', amount: 9_007_199_254_740_991 }],
      ['currency', { ...ok, currency: 'usd' }],
      ['currency', { ...ok, currency: 'XYZ' }],
      ['description', { ...ok, description: 'd'.repeat(256) }],
      ['customer.email', { ...withoutSource, token, customer: { email: 'not-an-email' } }],
      ['customer.firstName', { ...withoutSource, token, customer: { email: uniqueEmail(), firstName: 'f'.repeat(46) } }],
      ['organizationId', { ...ok, organizationId: 'not-a-uuid' }],
      ['surprise', { ...ok, surprise: true }],
    ];
    for (const [field, body] of bad) {
      const res = await pay(org, body);
      expect(res.status, field).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
      expect(res.json.details).toContain(field);
    }
    expect(await totalOf(org)).toBe(0);
    expect(await sandboxChargesOf(card.reference)).toHaveLength(0);
    expect((await getCardToken(org.organizationId, token))?.consumedAt).toBeNull();
    // One line a field, the problem that is true (a negative amount is not also "has more decimals").
    for (const [amount, line] of [
      [-5, 'amount: must not be negative'],
      [1e308, 'amount: must be at most 10000000'],
    ] as const) {
      expect((await pay(org, { ...ok, amount })).json.details).toBe(line);
    }
    const atLimits = await pay(org, { ...ok, description: 'd'.repeat(255), amount: 10_000_000 });
    expect(atLimits.status).toBe(201);
  });

  it('refuses unknown references with 404, an expired token and an instrument of another customer with 422, without using up the key', async () => {
    const org = await organizationAccount();
    const card = await cardOnFile(org);
    const otherCustomer = await newCustomer(org);
    const expiredToken = `tok_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    await createCardToken({
      id: expiredToken,
      organizationId: org.organizationId,
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: nextYear,
      fingerprint: 'f'.repeat(64),
      processorReference: card.reference,
      createdAt: new Date(Date.now() - 3_600_000).toISOString(),
      expiratedAt: new Date(Date.now() - 60_000).toISOString(),
      consumedAt: null,
    });
    const idempotencyKey = key();
    const base = { idempotencyKey, amount: 10, currency: 'USD' };
    const cases: Array<[number, string, Record<string, unknown>]> = [
      [404, 'customer.not_found', { customerId: `cus_${'0'.repeat(32)}`, paymentInstrumentId: card.paymentInstrumentId }],
      [404, 'payment_instrument.not_found', { paymentInstrumentId: `inst_${'0'.repeat(32)}` }],
      [404, 'card_token.not_found', { token: `tok_${'0'.repeat(24)}` }],
      [422, 'card_token.expired', { token: expiredToken }],
      [422, 'transaction.customer_mismatch', { customerId: otherCustomer, paymentInstrumentId: card.paymentInstrumentId }],
      [422, 'transaction.customer_mismatch', { customer: { email: uniqueEmail() }, paymentInstrumentId: card.paymentInstrumentId }],
    ];
    for (const [status, errorCode, body] of cases) {
      const res = await pay(org, { ...base, ...body });
      expect(res.status, errorCode).toBe(status);
      expect(res.json.errorCode).toBe(errorCode);
    }
    expect(await totalOf(org)).toBe(0);
    expect(await getIdempotencyRecord(org.organizationId, 'transactions', idempotencyKey)).toBeNull();
    expect((await pay(org, { ...base, paymentInstrumentId: card.paymentInstrumentId })).status).toBe(201);
  });

  it("refuses another organization's instrument and token as unknown", async () => {
    const [org, other] = await Promise.all([organizationAccount(), organizationAccount()]);
    const theirs = await cardOnFile(other);
    const theirToken = await cardToken(other);
    expect((await pay(org, { idempotencyKey: key(), amount: 1, currency: 'USD', paymentInstrumentId: theirs.paymentInstrumentId })).json.errorCode).toBe(
      'payment_instrument.not_found',
    );
    expect((await pay(org, { idempotencyKey: key(), amount: 1, currency: 'USD', token: theirToken })).json.errorCode).toBe('card_token.not_found');
    expect((await getCardToken(other.organizationId, theirToken))?.consumedAt).toBeNull();
  });

  it('uses a token once: a second payment with it under a new key is 409 card_token.already_used, and a token attached meanwhile cannot pay', async () => {
    const org = await organizationAccount();
    const token = await cardToken(org);
    expect((await pay(org, { idempotencyKey: key(), amount: 1, currency: 'USD', token })).status).toBe(201);
    const again = await pay(org, { idempotencyKey: key(), amount: 1, currency: 'USD', token });
    expect(again.status).toBe(409);
    expect(again.json.errorCode).toBe('card_token.already_used');

    const attachedToken = await cardToken(org);
    const customerId = await newCustomer(org);
    const attached = await orgCall('POST', `${orgPath(org.organizationId)}/customers/${customerId}/payment-instruments`, {
      fullKey: org.fullKey,
      body: { token: attachedToken },
    });
    expect(attached.status).toBe(201);
    const afterAttach = await pay(org, { idempotencyKey: key(), amount: 1, currency: 'USD', token: attachedToken });
    expect(afterAttach.status).toBe(409);
    expect(afterAttach.json.errorCode).toBe('card_token.already_used');
    expect(await totalOf(org)).toBe(1);
  });

  it('lets one of two payments racing with one token under different keys have it; the other is 409 and charges nothing', async () => {
    const org = await organizationAccount();
    const token = await cardToken(org);
    const answers = await Promise.all([1, 2].map(() => pay(org, { idempotencyKey: key(), amount: 1, currency: 'USD', token })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)?.json.errorCode).toBe('card_token.already_used');
    expect(await totalOf(org)).toBe(1);
  });
});

describe('POST /api/transactions: which organization', () => {
  it('needs organizationId from an account linked to several organizations (400), refuses one it is not linked to (403), and charges in the one named', async () => {
    // `one` registers a second organization of its own, so it is linked to two.
    const [one, stranger] = await Promise.all([organizationAccount(), organizationAccount()]);
    const registered = await orgCall('POST', '/v1/public-api/organizations', {
      fullKey: one.fullKey,
      body: {
        organizationName: 'Second shop',
        website: 'https://second.example',
        country: 'US',
        reportCurrency: 'USD',
        cfWorkspaceHash: 'ws_second',
        webhookMeta: { url: 'http://127.0.0.1:9999/hooks', eventTypes: [] },
        sandboxWebhookMeta: { url: 'http://127.0.0.1:9999/hooks', eventTypes: [] },
      },
    });
    expect(registered.status, registered.text).toBe(201);
    const two = { organizationId: registered.json.data.id as string, fullKey: one.fullKey };
    const tokenInTwo = await cardToken(two);

    const unnamed = await pay(one, { idempotencyKey: key(), amount: 1, currency: 'USD', token: tokenInTwo });
    expect(unnamed.status).toBe(400);
    expect(unnamed.json.errorCode).toBe('request.organization_id_required');
    for (const organizationId of [stranger.organizationId, randomUUID()]) {
      const foreign = await pay(one, { idempotencyKey: key(), organizationId, amount: 1, currency: 'USD', token: tokenInTwo });
      expect(foreign.status).toBe(403);
      expect(foreign.json.errorCode).toBe('forbidden');
    }

    const named = await pay(one, { idempotencyKey: key(), organizationId: two.organizationId, amount: 1, currency: 'USD', token: tokenInTwo });
    expect(named.status).toBe(201);
    expect(named.json.data.organizationId).toBe(two.organizationId);
    expect(await totalOf(two)).toBe(1);
    expect(await totalOf(one)).toBe(0);
  });

  it("charges in the account's one organization when organizationId is left out, and refuses calls without a valid key with 401", async () => {
    const org = await organizationAccount();
    const res = await pay(org, { idempotencyKey: key(), amount: 1, currency: 'USD', token: await cardToken(org) });
    expect(res.status).toBe(201);
    expect(res.json.data.organizationId).toBe(org.organizationId);
    const anonymous = await orgCall('POST', TX, { body: { idempotencyKey: key(), amount: 1, currency: 'USD', token: `tok_${'0'.repeat(32)}` } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.errorCode).toBe('auth.missing_api_key');
  });
});

describe('GET …/transactions: filters and sorts', () => {
  let org: Org;
  /** a, b, c, d in creation order (see beforeAll). */
  const t: Record<'a' | 'b' | 'c' | 'd', Record<string, any>> = {} as never;
  let buyerEmail: string;

  beforeAll(async () => {
    org = await organizationAccount();
    const carla = await cardOnFile(org, 'succeeds', { firstName: 'Carla', lastName: 'Zimmer' });
    buyerEmail = uniqueEmail('ann');
    t.a = (
      await pay(org, { idempotencyKey: key(), amount: 10, currency: 'USD', description: 'Alpha plan', paymentInstrumentId: carla.paymentInstrumentId })
    ).json.data;
    t.b = (
      await pay(org, {
        idempotencyKey: key(),
        amount: 20,
        currency: 'USD',
        description: 'beta add-on',
        token: await cardToken(org),
        customer: { email: buyerEmail, firstName: 'Ann', lastName: 'Young' },
      })
    ).json.data;
    t.c = (await pay(org, { idempotencyKey: key(), amount: 5, currency: 'EUR', token: await cardToken(org) })).json.data;
    const declined = await pay(org, {
      idempotencyKey: key(),
      amount: 7,
      currency: 'USD',
      description: 'Gamma',
      customerId: carla.customerId,
      token: await cardToken(org, testCards.genericDecline),
    });
    expect(declined.status).toBe(402);
    const id = /transactionId: (\S+)/.exec(declined.json.details)![1]!;
    t.d = (await list(org, `?search=${id}`)).json.data[0];
    expect([t.a, t.b, t.c].map((x) => x.status)).toEqual(['completed', 'completed', 'completed']);
    expect(t.d.status).toBe('declined');
  }, 60_000);

  const ids = async (query: string) => {
    const res = await list(org, query);
    expect(res.status, res.text).toBe(200);
    return { totalCount: res.json.totalCount as number, order: (res.json.data as Array<{ id: string }>).map((x) => x.id) };
  };
  const order = (...names: Array<'a' | 'b' | 'c' | 'd'>) => names.map((n) => t[n].id);

  it('lists newest first by default in the list envelope, with the total count and the paging asked for', async () => {
    const res = await list(org);
    expect(res.json).toMatchObject({ type: 'list', totalCount: 4, paginationMeta: { limit: 20, offset: 0 } });
    expect(res.json.data.map((x: { id: string }) => x.id)).toEqual(order('d', 'c', 'b', 'a'));
    expect(res.json.data[3]).toEqual(t.a);
  });

  it.each([
    ['createdAt', 'asc', ['a', 'b', 'c', 'd']],
    ['createdAt', 'desc', ['d', 'c', 'b', 'a']],
    ['updatedAt', 'asc', ['a', 'b', 'c', 'd']],
    ['updatedAt', 'desc', ['d', 'c', 'b', 'a']],
    // The description, case ignored; none last in both directions.
    ['title', 'asc', ['a', 'b', 'd', 'c']],
    ['title', 'desc', ['d', 'b', 'a', 'c']],
    // "first last"; ties by creation in the same direction; none last.
    ['customerName', 'asc', ['b', 'a', 'd', 'c']],
    ['customerName', 'desc', ['d', 'a', 'b', 'c']],
    ['date', 'asc', ['a', 'b', 'c', 'd']],
    ['date', 'desc', ['d', 'c', 'b', 'a']],
    // Every transaction is a sandbox sale today: ties, broken by creation.
    ['paymentType', 'asc', ['a', 'b', 'c', 'd']],
    ['paymentType', 'desc', ['d', 'c', 'b', 'a']],
    ['gatewayName', 'asc', ['a', 'b', 'c', 'd']],
    ['gatewayName', 'desc', ['d', 'c', 'b', 'a']],
  ] as const)('sorts by %s %s', async (sortBy, direction, expected) => {
    expect(await ids(`?sortBy=${sortBy}&sortDirection=${direction}`)).toEqual({ totalCount: 4, order: order(...expected) });
  });

  it('pages with limit and offset, for index sorts and in-memory sorts alike; limit 0 counts only', async () => {
    expect(await ids('?sortBy=createdAt&sortDirection=asc&limit=2&offset=1')).toEqual({ totalCount: 4, order: order('b', 'c') });
    expect(await ids('?sortBy=title&sortDirection=asc&limit=2&offset=1')).toEqual({ totalCount: 4, order: order('b', 'd') });
    expect(await ids('?sortBy=title&offset=4')).toEqual({ totalCount: 4, order: [] });
    expect(await ids('?limit=0')).toEqual({ totalCount: 4, order: [] });
    expect(await ids('?limit=100')).toEqual({ totalCount: 4, order: order('d', 'c', 'b', 'a') });
  });

  it('reads the sort fields of every match for an in-memory sort, and stops as soon as more than the bound match', async () => {
    const all = await listTransactionSortFields(org.organizationId, { showTestData: true }, 4);
    expect(all).not.toBe('too_many');
    expect((all as Array<{ id: string }>).map((x) => x.id).sort()).toEqual(order('a', 'b', 'c', 'd').sort());
    expect(await listTransactionSortFields(org.organizationId, { showTestData: true }, 3)).toBe('too_many');
    expect(await listTransactionSortFields(org.organizationId, { showTestData: true, statuses: ['completed'] }, 3)).toHaveLength(3);
  });

  it('filters by combinedStatuses (comma-separated or repeated)', async () => {
    expect(await ids('?combinedStatuses=declined')).toEqual({ totalCount: 1, order: order('d') });
    expect(await ids('?combinedStatuses=completed&sortDirection=asc')).toEqual({ totalCount: 3, order: order('a', 'b', 'c') });
    expect((await ids('?combinedStatuses=completed,declined')).totalCount).toBe(4);
    expect((await ids('?combinedStatuses=completed&combinedStatuses=declined')).totalCount).toBe(4);
    expect((await ids('?combinedStatuses=refunded')).totalCount).toBe(0);
    expect(await ids('?combinedStatuses=completed&sortBy=customerName&sortDirection=asc')).toEqual({ totalCount: 3, order: order('b', 'a', 'c') });
  });

  it('filters by paymentMethods', async () => {
    expect((await ids('?paymentMethods=payment-card')).totalCount).toBe(4);
    expect((await ids('?paymentMethods=ach,SEPA')).totalCount).toBe(0);
    expect((await ids('?paymentMethods=ach,payment-card&sortBy=title')).totalCount).toBe(4);
  });

  it("searches the description, the customer's name and e-mail, the id and the processor's id, case ignored", async () => {
    expect(await ids('?search=BETA')).toEqual({ totalCount: 1, order: order('b') });
    expect(await ids('?search=zimmer&sortDirection=asc')).toEqual({ totalCount: 2, order: order('a', 'd') });
    expect(await ids(`?search=${encodeURIComponent(buyerEmail.toUpperCase())}`)).toEqual({ totalCount: 1, order: order('b') });
    expect(await ids(`?search=${t.c.externalTransactionId}`)).toEqual({ totalCount: 1, order: order('c') });
    expect(await ids(`?search=${t.a.id}`)).toEqual({ totalCount: 1, order: order('a') });
    expect(await ids('?search=nothing-like-this')).toEqual({ totalCount: 0, order: [] });
    expect(await ids('?search=zimmer&combinedStatuses=completed&sortBy=title')).toEqual({ totalCount: 1, order: order('a') });
  });

  it('leaves test data out with showTestData=false (everything on the sandbox deployment is test data)', async () => {
    expect(t.a.isTestData).toBe(true);
    expect((await ids('?showTestData=false')).totalCount).toBe(0);
    expect((await ids('?showTestData=false&sortBy=title')).totalCount).toBe(0);
    expect((await ids('?showTestData=true')).totalCount).toBe(4);
  });

  it('filters by subscriptionId (no transaction belongs to a subscription yet)', async () => {
    expect(await ids(`?subscriptionId=${randomUUID()}`)).toEqual({ totalCount: 0, order: [] });
    expect(await ids(`?subscriptionId=${randomUUID()}&sortBy=date`)).toEqual({ totalCount: 0, order: [] });
  });

  it('refuses bad query parameters with 400 request.invalid_query', async () => {
    for (const query of [
      '?limit=101',
      '?limit=-1',
      '?offset=-1',
      '?sortBy=amount',
      '?sortDirection=up',
      '?combinedStatuses=paid',
      '?combinedStatuses=',
      '?paymentMethods=card',
      '?showTestData=yes',
      `?subscriptionId=${'s'.repeat(51)}`,
      `?search=${'q'.repeat(256)}`,
      '?unknown=1',
    ]) {
      const res = await list(org, query);
      expect(res.status, query).toBe(400);
      expect(res.json.errorCode).toBe('request.invalid_query');
    }
  });

  it("answers 403 for an organization the account is not linked to, and never lists another organization's transactions", async () => {
    const other = await organizationAccount();
    const res = await list(org, '', other.fullKey);
    expect(res.status).toBe(403);
    expect(res.json.errorCode).toBe('forbidden');
    expect((await list(other)).json.totalCount).toBe(0);
  });
});

describe('POST /api/transactions: the tax the amount includes', () => {
  const charge = (org: Org, body: Record<string, unknown>) =>
    orgCall('POST', TX, { fullKey: org.fullKey, body: { idempotencyKey: key(), currency: 'EUR', ...body } });
  const taxBooked = async (org: Org, transactionId: string) => {
    const journal = (await listJournals(org.organizationId)).find((j) => j.type === 'payment' && j.reference === transactionId);
    return journal?.entries.find((e) => e.account === 'platform:tax')?.amount;
  };

  it("keeps the tax of where the buyer is within the amount: the body's place, else the card's billing address, else the customer's", async () => {
    const org = await organizationAccount('Taxed charges');
    // 100.00 from Germany (19 %): 100 × 0.19 / 1.19 = 15.966… → 15.97; the merchant's share 100 − 15.97 − 5.00 fee.
    const fromBody = await charge(org, { amount: 100, token: await cardToken(org), billingAddress: { country: 'de' } });
    expect(fromBody.status, fromBody.text).toBe(201);
    expect(fromBody.json.data).toMatchObject({ amount: 100, tax: 15.97 });
    expect(await taxBooked(org, fromBody.json.data.id)).toBe(-1597);
    expect((await getBalance(org.organizationId, 'EUR')).pending).toBe(10_000 - 1597 - 500);
    // A saved card with a billing address in France (20 %): 30 × 0.2 / 1.2 = 5.00; its customer's address is not asked.
    const card = await cardOnFile(org, 'succeeds', { primaryAddress: { customerAddress: { country: 'DE' } } });
    const billed = await orgCall('PATCH', `${orgPath(org.organizationId)}/payment-instruments/${card.paymentInstrumentId}`, {
      fullKey: org.fullKey,
      body: { billingAddress: { country: 'FR' } },
    });
    expect(billed.status, billed.text).toBe(200);
    const fromCard = await charge(org, { amount: 30, paymentInstrumentId: card.paymentInstrumentId });
    expect(fromCard.json.data).toMatchObject({ amount: 30, tax: 5 });
    // A card without a billing address: the customer's address (Québec, 5 % + 9.975 %): 10 × 0.14975 / 1.14975 = 1.302… → 1.30.
    const quebec = await cardOnFile(org, 'succeeds', { primaryAddress: { customerAddress: { country: 'CA', region: 'QC' } } });
    const fromCustomer = await charge(org, { amount: 10, currency: 'CAD', paymentInstrumentId: quebec.paymentInstrumentId });
    expect(fromCustomer.json.data).toMatchObject({ amount: 10, currency: 'CAD', tax: 1.3 });
    // JPY has no minor unit: 1,000 from Japan (10 %) holds 91 (90.909… → 91).
    const yen = await charge(org, { amount: 1000, currency: 'JPY', token: await cardToken(org), billingAddress: { country: 'JP' } });
    expect(yen.json.data).toMatchObject({ amount: 1000, tax: 91 });
    // A refund of half gives back half of the tax (7.985 → 7.98, half to even), as any payment's refund does.
    const refund = await orgCall('POST', `${transactions(org)}/${fromBody.json.data.id}/refunds`, { fullKey: org.fullKey, body: { amount: 50 } });
    expect(refund.status, refund.text).toBe(201);
    const refundJournal = (await listJournals(org.organizationId)).find((j) => j.type === 'refund');
    expect(refundJournal?.entries.find((e) => e.account === 'platform:tax')?.amount).toBe(798);
  });

  it('refuses a charge with no place to tax, or one without a known rate, before anything is charged: the key stays free', async () => {
    const org = await organizationAccount('Untaxable charges');
    const token = await cardToken(org);
    const idempotencyKey = key();
    const nowhere = await orgCall('POST', TX, {
      fullKey: org.fullKey,
      body: { idempotencyKey, amount: 10, currency: 'USD', token, customer: { email: uniqueEmail('nowhere') } },
    });
    expect(nowhere.status, nowhere.text).toBe(422);
    expect(nowhere.json.errorCode).toBe('transaction.billing_address_required');
    for (const [billingAddress, reason] of [
      [{ country: 'US' }, 'state_required'],
      [{ country: 'AQ' }, 'country_not_sold'],
    ] as const) {
      const refused = await orgCall('POST', TX, { fullKey: org.fullKey, body: { idempotencyKey, amount: 10, currency: 'USD', token, billingAddress } });
      expect(refused.status, refused.text).toBe(422);
      expect(refused.json).toMatchObject({ errorCode: 'checkout.tax_unavailable' });
      expect(refused.text).toContain(reason);
    }
    expect(await totalOf(org)).toBe(0);
    expect(await getIdempotencyRecord(org.organizationId, 'transactions', idempotencyKey)).toBeNull();
    expect((await getCardToken(org.organizationId, token))?.consumedAt).toBeFalsy();
    // The same key and token, the place given: charged.
    const placed = await orgCall('POST', TX, {
      fullKey: org.fullKey,
      body: { idempotencyKey, amount: 10, currency: 'USD', token, billingAddress: { country: 'US', region: 'NY' } },
    });
    expect(placed.status, placed.text).toBe(201);
    expect(placed.json.data.tax).toBe(0.38);
  });
});
