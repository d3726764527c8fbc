/**
 * Refunds through the organization API, the dashboard and the sandbox processor: full and partial refunds move
 * the transaction to refunded / partially-refunded, never add up to more than was captured (also when they run
 * at once), are booked in the ledger, replay under an Idempotency-Key, and only a processor refund sends
 * `payment.refunded`.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getBalance, listJournals } from '../../../shared/money/ledger.repository.ts';
import { listRefunds } from '../../../shared/payments/refunds.repository.ts';
import { getTransaction } from '../../../shared/payments/transactions.repository.ts';
import { balancesOf, HOLD_DAYS, isBalanced } from '../../../shared/money/ledger.rules.ts';
import { sandboxRefundProcessor } from '../../../shared/processor/sandbox-refunds.ts';
import { releaseDueFunds } from '../../../shared/money/ledger.service.ts';
import { advanceDispute } from '../../../shared/payments/disputes.service.ts';
import { testCards } from '../../support/cards.ts';
import {
  adminCli,
  adminCliWithEnv,
  call,
  cardToken,
  orgCall,
  orgPath,
  orgPlan,
  payByCard,
  person,
  PASSWORD,
  rootMerchant,
  uniqueEmail,
} from '../../support/fixtures.ts';
import { bodyOf, eventually, merchantEvents } from '../../support/receiver.ts';

const D = '/v1/dashboard';

/** An organization whose account has a key, and whose owner can sign in to the dashboard. */
async function shop(name = 'Refund shop') {
  const merchant = await rootMerchant(name);
  const { createAccount } = await import('../../../shared/organizations/accounts.service.ts');
  const account = await createAccount({ name: `${name} backend`, mode: 'test', organizationId: merchant.merchantId });
  const base = `/v1/public-api/accounts/${account.accountId}`;
  expect((await call('POST', `${base}/activate`, { body: { secret: account.secret } })).status).toBe(200);
  const key = await call('POST', `${base}/api-keys`, { body: { secret: account.secret } });
  expect(key.status).toBe(201);
  return { organizationId: merchant.merchantId, fullKey: key.json.data.apiKey as string, ownerEmail: merchant.ownerEmail };
}
type Shop = Awaited<ReturnType<typeof shop>>;

async function paid(org: Shop, amount: number, currency = 'USD'): Promise<string> {
  const res = await payByCard(org, amount, currency);
  expect(res.status, res.text).toBe(201);
  return res.json.data.id as string;
}

const refundsOf = (org: Shop, transactionId: string) => `${orgPath(org.organizationId)}/transactions/${transactionId}/refunds`;

function refund(org: Shop, transactionId: string, body: Record<string, unknown> = {}, idempotencyKey?: string) {
  return orgCall('POST', refundsOf(org, transactionId), {
    fullKey: org.fullKey,
    body,
    ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
  });
}

async function signIn(email: string): Promise<string> {
  const res = await call('POST', `${D}/sessions`, { body: { email, password: PASSWORD } });
  expect(res.status).toBe(201);
  return res.json.token as string;
}

/** The ledger's invariant for the merchant: every journal balanced, the balance item equal to the sum of the entries. */
async function expectLedgerConsistent(merchantId: string, currency: string) {
  const journals = await listJournals(merchantId);
  for (const j of journals) expect(isBalanced(j.entries), j.id).toBe(true);
  const balance = await getBalance(merchantId, currency);
  expect(balance).toEqual(
    balancesOf(
      merchantId,
      journals.filter((j) => j.currency === currency),
    ),
  );
  return { journals, balance };
}

describe('refunds: full and partial', () => {
  it('refunds all that is left when no amount is given: the transaction becomes refunded, the ledger debits the merchant and keeps the fee', async () => {
    const org = await shop();
    const transactionId = await paid(org, 100);
    const res = await refund(org, transactionId, { reason: '  Customer changed their mind  ' });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({
      transactionId,
      organizationId: org.organizationId,
      amount: 100,
      currency: 'USD',
      reason: 'Customer changed their mind',
      source: 'api',
      status: 'refunded',
      externalRefundId: expect.stringMatching(/^re_[A-Za-z0-9]{24}$/),
      failureReason: null,
      idempotencyKey: null,
    });
    const t = await getTransaction(org.organizationId, transactionId);
    expect(t).toMatchObject({ status: 'refunded', refundedMinor: 10_000, refundSettledMinor: 10_000 });

    const again = await refund(org, transactionId);
    expect(again.status).toBe(422);
    expect(again.json).toMatchObject({ errorCode: 'refund.transaction_not_refundable', statusCode: 422 });
    expect(again.json.details).toContain('status: refunded');

    const { journals, balance } = await expectLedgerConsistent(org.organizationId, 'USD');
    expect(journals.map((j) => j.type)).toEqual(['payment', 'refund']);
    expect(journals[1]!.id).toBe(`refund:${res.json.data.id}`);
    // The net 95.00 is still pending; the 100.00 given back is owed (nothing available); the 5.00 fee stays.
    expect(balance).toMatchObject({ pending: 9_500, available: 0, owed: 10_000 });
    expect(journals[1]!.entries).toEqual(expect.arrayContaining([{ account: 'platform:cash', amount: -10_000 }]));
  });

  it('refunds in parts: partially-refunded, then refunded; more than is left is 422 and changes nothing', async () => {
    const org = await shop();
    const transactionId = await paid(org, 100, 'EUR');
    const first = await refund(org, transactionId, { amount: 30 });
    expect(first.status, first.text).toBe(201);
    expect(first.json.data).toMatchObject({ amount: 30, currency: 'EUR', status: 'refunded', reason: null });
    expect((await getTransaction(org.organizationId, transactionId))!.status).toBe('partially-refunded');

    const tooMuch = await refund(org, transactionId, { amount: 70.01 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.json.errorCode).toBe('refund.amount_exceeds_refundable');
    expect(tooMuch.json.details).toContain('refundableAmount: 70');
    const badDecimals = await refund(org, transactionId, { amount: 1.001 });
    expect(badDecimals.status).toBe(422);
    expect(badDecimals.json.errorCode).toBe('refund.invalid_amount');
    const zero = await refund(org, transactionId, { amount: 0 });
    expect(zero.status).toBe(400);
    expect(await listRefunds(transactionId)).toHaveLength(1);
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({ status: 'partially-refunded', refundedMinor: 3_000 });

    const rest = await refund(org, transactionId, { amount: 70 });
    expect(rest.status, rest.text).toBe(201);
    expect((await getTransaction(org.organizationId, transactionId))!.status).toBe('refunded');

    const listed = await orgCall('GET', refundsOf(org, transactionId), { fullKey: org.fullKey });
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject({ type: 'list', totalCount: 2, paginationMeta: { limit: 20, offset: 0 } });
    expect(listed.json.data.map((r: { id: string }) => r.id)).toEqual([rest.json.data.id, first.json.data.id]);
    const oldestFirst = await orgCall('GET', `${refundsOf(org, transactionId)}?sortDirection=asc&limit=1`, { fullKey: org.fullKey });
    expect(oldestFirst.json.data.map((r: { amount: number }) => r.amount)).toEqual([30]);
    await expectLedgerConsistent(org.organizationId, 'EUR');
  });

  it('takes a refund from available funds first once the payment is released', async () => {
    const org = await shop();
    const transactionId = await paid(org, 20);
    await releaseDueFunds(new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000), { merchantId: org.organizationId });
    expect(await getBalance(org.organizationId, 'USD')).toMatchObject({ pending: 0, available: 1_900 });
    expect((await refund(org, transactionId, { amount: 5 })).status).toBe(201);
    const { balance } = await expectLedgerConsistent(org.organizationId, 'USD');
    expect(balance).toMatchObject({ pending: 0, available: 1_400, owed: 0 });
  });

  it('refuses a declined transaction (422) and an unknown one (404), writing nothing', async () => {
    const org = await shop();
    const declined = await payByCard(org, 50, 'USD', testCards.insufficientFunds);
    expect(declined.status).toBe(402);
    const transactionId = /transactionId: ([0-9a-f-]{36})/.exec(declined.json.details as string)![1]!;
    const res = await refund(org, transactionId, { amount: 10 });
    expect(res.status).toBe(422);
    expect(res.json.errorCode).toBe('refund.transaction_not_refundable');
    expect(res.json.details).toContain('status: declined');
    expect(await listRefunds(transactionId)).toHaveLength(0);
    expect((await getTransaction(org.organizationId, transactionId))!.refundedMinor).toBeUndefined();

    const unknown = await refund(org, '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
    expect(unknown.status).toBe(404);
    expect(unknown.json.errorCode).toBe('transaction.not_found');
    const other = await shop('Other shop');
    const foreign = await paid(other, 10);
    const notMine = await refund(org, foreign);
    expect(notMine.status).toBe(404);
    expect(await listRefunds(foreign)).toHaveLength(0);
  });
});

describe('refunds and disputes: the tax given back', () => {
  /** A payment of 1,234 JPY plus Japan's 10 % (123 JPY) through the checkout: its transaction id. */
  async function taxedPayment(org: Shop): Promise<string> {
    const plan = await orgPlan(org, { currency: 'JPY', pricing: { price: 1234, formula: 'fixed-fee' } });
    const session = await call('POST', `/v1/checkout/plans/${plan.id}/session`, { body: { email: uniqueEmail('buyer'), billingAddress: { country: 'JP' } } });
    expect(session.status, session.text).toBe(200);
    const confirm = await call('POST', `/v1/checkout/plans/${plan.id}/confirm`, { body: { sessionId: session.json.sessionId, token: await cardToken(org) } });
    expect(confirm.status, confirm.text).toBe(200);
    expect(confirm.json).toMatchObject({ subtotal: 1234, tax: 123, amount: 1357 });
    return confirm.json.transactionId as string;
  }

  it('gives back exactly the tax collected however a payment is refunded in parts, and the merchant is debited what a single refund debits', async () => {
    const org = await shop();
    const whole = await taxedPayment(org);
    const tenOfFive = await taxedPayment(org);
    const twentyOfSix = await taxedPayment(org);
    expect((await refund(org, whole)).status).toBe(201);
    for (const [id, count, each] of [
      [tenOfFive, 10, 5],
      [twentyOfSix, 20, 6],
    ] as const) {
      for (let n = 0; n < count; n++) expect((await refund(org, id, { amount: each })).status).toBe(201);
      expect((await refund(org, id)).status).toBe(201);
    }
    const { journals } = await expectLedgerConsistent(org.organizationId, 'JPY');
    for (const id of [whole, tenOfFive, twentyOfSix]) {
      const refundIds = new Set((await listRefunds(id)).map((r) => r.id));
      const entries = journals.filter((j) => j.type === 'refund' && refundIds.has(j.reference)).flatMap((j) => j.entries);
      const sum = (account: (a: string) => boolean) => entries.filter((e) => account(e.account)).reduce((n, e) => n + e.amount, 0);
      // All of the 123 of tax back, no more; the merchant debited 1,357 less it: 1,234.
      expect(
        sum((a) => a === 'platform:tax'),
        id,
      ).toBe(123);
      expect(
        sum((a) => a.startsWith(`merchant:${org.organizationId}:`)),
        id,
      ).toBe(1234);
    }
  });
  it('a lost dispute gives back the tax in what it took, as a refund does: the merchant is never debited tax it did not receive', async () => {
    const org = await shop();
    const dispute = async (transactionId: string, amount: number, outcome: 'won' | 'lost') => {
      const id = `dsp-${randomUUID()}`;
      const opened = await orgCall('POST', `${orgPath(org.organizationId)}/disputes/${id}`, {
        fullKey: org.fullKey,
        body: { transactionId, currency: 'JPY', amount },
      });
      expect(opened.status, opened.text).toBe(201);
      await advanceDispute(org.organizationId, id, outcome);
      return `${org.organizationId}/${id}`;
    };
    // Lost in full; refunded 357 then lost for the 1,000 left; won in full, then refunded in full.
    const lostWhole = await taxedPayment(org);
    const refundedThenLost = await taxedPayment(org);
    const wonThenRefunded = await taxedPayment(org);
    const lostWholeRef = await dispute(lostWhole, 1357, 'lost');
    expect((await refund(org, refundedThenLost, { amount: 357 })).status).toBe(201);
    const partRef = await dispute(refundedThenLost, 1000, 'lost');
    const wonRef = await dispute(wonThenRefunded, 1357, 'won');
    expect((await refund(org, wonThenRefunded)).status).toBe(201);

    const { journals, balance } = await expectLedgerConsistent(org.organizationId, 'JPY');
    expect(balance.reserved).toBe(0);
    const given = async (transactionId: string, disputeRef: string) => {
      const refundIds = new Set((await listRefunds(transactionId)).map((r) => r.id));
      const entries = journals.filter((j) => refundIds.has(j.reference) || j.reference === disputeRef).flatMap((j) => j.entries);
      const sum = (account: (a: string) => boolean) => entries.filter((e) => account(e.account)).reduce((n, e) => n + e.amount, 0);
      return { tax: sum((a) => a === 'platform:tax'), merchant: sum((a) => a.startsWith(`merchant:${org.organizationId}:`)) };
    };
    // Each payment went back whole: all 123 of its tax is no longer owed, and the merchant is debited 1,234, the 1,357
    // less the tax, as one full refund debits it (a won dispute holds that much and gives it back).
    for (const [id, ref] of [
      [lostWhole, lostWholeRef],
      [refundedThenLost, partRef],
      [wonThenRefunded, wonRef],
    ] as const) {
      expect(await given(id, ref), id).toEqual({ tax: 123, merchant: 1234 });
    }
    const held = journals.find((j) => j.type === 'dispute_opened' && j.reference === lostWholeRef)!;
    expect(held.entries.find((e) => e.account === `merchant:${org.organizationId}:reserved`)!.amount).toBe(-1234);
  });
});

describe('refunds: concurrency and idempotency', () => {
  it('never refunds more than was captured when refunds run at once: 5 refunds of 30 on 100', async () => {
    const org = await shop();
    const transactionId = await paid(org, 100);
    const all = await Promise.all(Array.from({ length: 5 }, () => refund(org, transactionId, { amount: 30 })));
    const ok = all.filter((r) => r.status === 201);
    const refused = all.filter((r) => r.status !== 201);
    expect(ok).toHaveLength(3);
    for (const r of refused) expect(r.json.errorCode).toBe('refund.amount_exceeds_refundable');
    const stored = await listRefunds(transactionId);
    expect(stored).toHaveLength(3);
    expect(stored.every((r) => r.status === 'refunded')).toBe(true);
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({
      status: 'partially-refunded',
      refundedMinor: 9_000,
      refundSettledMinor: 9_000,
    });
    const { journals } = await expectLedgerConsistent(org.organizationId, 'USD');
    expect(journals.filter((j) => j.type === 'refund')).toHaveLength(3);
  });

  it('replays a refund under the same Idempotency-Key, refuses the key for another body, and refunds once under concurrent retries', async () => {
    const org = await shop();
    const transactionId = await paid(org, 50);
    const key = `refund-${randomUUID()}`;
    const both = await Promise.all([refund(org, transactionId, { amount: 10 }, key), refund(org, transactionId, { amount: 10 }, key)]);
    for (const r of both) expect([201, 409]).toContain(r.status);
    const made = both.find((r) => r.status === 201)!;
    expect(made.json.data).toMatchObject({ amount: 10, idempotencyKey: key, status: 'refunded' });

    const replay = await refund(org, transactionId, { amount: 10 }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json).toEqual(made.json);

    const changed = await refund(org, transactionId, { amount: 11 }, key);
    expect(changed.status).toBe(422);
    expect(changed.json.errorCode).toBe('idempotency.key_reused');
    const tooLong = await refund(org, transactionId, { amount: 1 }, 'k'.repeat(256));
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.errorCode).toBe('request.invalid_idempotency_key');

    expect(await listRefunds(transactionId)).toHaveLength(1);
    expect((await getTransaction(org.organizationId, transactionId))!.refundedMinor).toBe(1_000);
  });
});

describe('refunds: dashboard, processor and webhooks', () => {
  it('dashboard and API refunds send no webhook; a processor refund sends payment.refunded with the gross amount', async () => {
    const org = await shop('Webhook refunds');
    const r = await merchantEvents(org.organizationId, ['payment.refunded']);
    const transactionId = await paid(org, 80);

    expect((await refund(org, transactionId, { amount: 10 })).status).toBe(201);
    const token = await signIn(org.ownerEmail);
    const dashboardPath = `${D}/merchants/${org.organizationId}/transactions/${transactionId}/refunds`;
    const fromDashboard = await call('POST', dashboardPath, { key: token, body: { amount: 5, reason: 'Damaged' } });
    expect(fromDashboard.status, fromDashboard.text).toBe(201);
    expect(fromDashboard.json).toMatchObject({ amount: 5, source: 'dashboard', status: 'refunded', reason: 'Damaged' });
    const stranger = await person();
    const refused = await call('POST', dashboardPath, { key: stranger.token, body: { amount: 5 } });
    expect(refused.status).toBe(403);

    const simulated = await orgCall('POST', `${orgPath(org.organizationId)}/transactions/${transactionId}/processor-refunds`, {
      fullKey: org.fullKey,
      body: { amount: 15 },
    });
    expect(simulated.status, simulated.text).toBe(201);
    expect(simulated.json.data).toMatchObject({ amount: 15, source: 'processor', status: 'refunded' });

    const delivered = bodyOf(await eventually(() => r.received[0], 25_000, 'payment.refunded'));
    const t = (await getTransaction(org.organizationId, transactionId))!;
    expect(delivered).toMatchObject({
      transactionId,
      externalTransactionId: t.externalTransactionId,
      amount: 80,
      currency: 'usd',
      orderId: null,
      customerId: null,
      subscriptionId: null,
    });
    expect(t).toMatchObject({ status: 'partially-refunded', refundSettledMinor: 3_000 });
    expect(r.received).toHaveLength(1);
    expect((await listRefunds(transactionId)).map((x) => x.source)).toEqual(['api', 'dashboard', 'processor']);
    await expectLedgerConsistent(org.organizationId, 'USD');
  });
});

describe('refunds: the sandbox processor and the operator command', () => {
  it('the sandbox processor refunds a charge at most up to its amount, once per key', async () => {
    const org = await shop();
    const transactionId = await paid(org, 10);
    const t = (await getTransaction(org.organizationId, transactionId))!;
    const base = { externalTransactionId: t.externalTransactionId!, currency: 'USD' };
    const key = `sandbox-${randomUUID()}`;
    const made = await sandboxRefundProcessor.refund({ ...base, amountMinor: 600, idempotencyKey: key });
    expect(made).toEqual({ outcome: 'succeeded', externalRefundId: expect.stringMatching(/^re_[A-Za-z0-9]{24}$/) });
    expect(await sandboxRefundProcessor.refund({ ...base, amountMinor: 600, idempotencyKey: key })).toEqual(made);
    expect(await sandboxRefundProcessor.refund({ ...base, amountMinor: 500, idempotencyKey: key })).toMatchObject({
      outcome: 'failed',
      errorCode: 'idempotency_key_reused',
    });
    expect(await sandboxRefundProcessor.refund({ ...base, amountMinor: 401, idempotencyKey: randomUUID() })).toMatchObject({
      outcome: 'failed',
      errorCode: 'amount_too_large',
    });
    expect(await sandboxRefundProcessor.refund({ ...base, currency: 'EUR', amountMinor: 1, idempotencyKey: randomUUID() })).toMatchObject({
      outcome: 'failed',
      errorCode: 'currency_mismatch',
    });
    expect(
      await sandboxRefundProcessor.refund({ ...base, externalTransactionId: 'pay_000000000000000000000000', amountMinor: 1, idempotencyKey: randomUUID() }),
    ).toMatchObject({ outcome: 'failed', errorCode: 'unknown_charge' });
    expect(await sandboxRefundProcessor.refund({ ...base, amountMinor: 400, idempotencyKey: randomUUID() })).toMatchObject({ outcome: 'succeeded' });
  });

  it('a refund the processor refuses is answered with status failed and gives its reservation back', async () => {
    const org = await shop();
    const transactionId = await paid(org, 10);
    const t = (await getTransaction(org.organizationId, transactionId))!;
    // The processor's own balance of the charge is spent behind the platform's back: it refuses the next refund.
    expect(
      await sandboxRefundProcessor.refund({
        externalTransactionId: t.externalTransactionId!,
        currency: 'USD',
        amountMinor: 1_000,
        idempotencyKey: randomUUID(),
      }),
    ).toMatchObject({ outcome: 'succeeded' });
    const res = await refund(org, transactionId, { amount: 4 });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ status: 'failed', externalRefundId: null, failureReason: { code: 'amount_too_large' } });
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({ status: 'completed', refundedMinor: 0 });
    const { journals } = await expectLedgerConsistent(org.organizationId, 'USD');
    expect(journals.map((j) => j.type)).toEqual(['payment']);
  });

  it('npm run admin -- simulate-refund records a processor refund', async () => {
    const org = await shop();
    const transactionId = await paid(org, 12);
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of ['PORT', 'DYNAMODB_PORT', 'SQS_PORT', 'MOR_STACKS_DIR']) delete env[name];
    const { stdout } = await adminCli({ MOR_STACKS_DIR: undefined }, 'simulate-refund', transactionId, '--amount', '2.5', '--json');
    expect(JSON.parse(stdout)).toMatchObject({ transactionId, amount: 2.5, source: 'processor', status: 'refunded' });
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({ status: 'partially-refunded', refundSettledMinor: 250 });
    await expect(adminCliWithEnv(env, 'simulate-refund')).rejects.toMatchObject({ code: 1 });
  });
});
