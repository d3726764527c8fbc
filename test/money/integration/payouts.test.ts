/**
 * Merchant funds end to end: a payment's net is held, released, shown in the balance summary and paid out to a
 * bank account added through the organization API; payout requests are idempotent, the merchant's own key's alone
 * and never overdraw; withdrawals move through their statuses with `payout.sent`, `payout_paid` and the reversing
 * `payout_failed`, and the balance item always equals the sum of the journals.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { getMerchant } from '../../../shared/people/merchants.repository.ts';
import { transactWrite } from '../../../shared/platform/db/transactions.ts';
import { putIdempotencyClaim } from '../../../shared/platform/db/idempotency.ts';
import { idempotencyKey } from '../../../shared/platform/db/idempotency.entity.ts';
import { getBalance, listJournals } from '../../../shared/money/ledger.repository.ts';
import { balancesOf, HOLD_DAYS, isBalanced } from '../../../shared/money/ledger.rules.ts';
import { newWithdrawalId, payoutFingerprint } from '../../../shared/money/payouts.rules.ts';
import { releaseDueFunds } from '../../../shared/money/ledger.service.ts';
import { PAYOUT_OPERATION, requestMerchantPayout } from '../../../shared/money/payouts.service.ts';
import { adminCli, call, organizationAccount, PASSWORD, orgCall, orgPath, payByCard, subMerchant } from '../../support/fixtures.ts';
import { bodyOf, eventually, merchantEvents } from '../../support/receiver.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;
const M = (merchantId: string) => `/v1/public-api/merchants/${merchantId}`;
const IBAN = 'DE89 3704 0044 0532 0130 00';

async function pay(org: Org, amount: number, currency: string) {
  const res = await payByCard(org, amount, currency);
  expect(res.status, res.text).toBe(201);
}

const release = (org: Org) => releaseDueFunds(new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000), { merchantId: org.organizationId });

async function addMethod(org: Org, body: Record<string, unknown> = {}) {
  return orgCall('POST', `${orgPath(org.organizationId)}/payout-methods`, {
    fullKey: org.fullKey,
    body: { type: 'bank-account', holderName: 'Jane Seller', country: 'DE', currency: 'EUR', accountNumber: IBAN, ...body },
  });
}

/** An organization with `amount` EUR paid and released (95 % of it available) and a verified EUR bank account. */
async function fundedShop(amount: number) {
  const org = await organizationAccount('Payout shop');
  await pay(org, amount, 'EUR');
  expect(await release(org)).toBe(1);
  const method = await addMethod(org);
  expect(method.status, method.text).toBe(201);
  return { org, methodId: method.json.data.id as string };
}

/** A payout request; `idempotencyKey` null sends none. */
function payout(
  org: Org,
  body: Record<string, unknown>,
  idempotencyKey: string | null = randomUUID(),
  key = org.merchantApiKey,
  merchantId = org.organizationId,
) {
  return call('POST', `${M(merchantId)}/payouts`, { key, body, ...(idempotencyKey === null ? {} : { headers: { 'idempotency-key': idempotencyKey } }) });
}

const advance = (org: Org, withdrawalId: string, to: string) =>
  call('POST', `${M(org.organizationId)}/payouts/${withdrawalId}/advance`, { key: org.merchantApiKey, body: { to } });

async function summary(org: Org) {
  const res = await call('GET', `${M(org.organizationId)}/balances/summary`, { key: org.merchantApiKey });
  expect(res.status, res.text).toBe(200);
  return res.json as { merchantId: string; balances: Array<Record<string, unknown>> };
}

/** The ledger's invariant for the shop: every journal balanced, the balance item the sum of their entries. */
async function expectLedgerConsistent(org: Org, currency = 'EUR') {
  const journals = await listJournals(org.organizationId);
  for (const j of journals) expect(isBalanced(j.entries), j.id).toBe(true);
  const balance = await getBalance(org.organizationId, currency);
  expect(balance).toEqual(balancesOf(org.organizationId, journals));
  expect(balance.available).toBeGreaterThanOrEqual(0);
  return balance;
}

describe('balance summary', () => {
  it("shows a payment's net as pending, then as available once released, in major units", async () => {
    const org = await organizationAccount('Summary shop');
    expect(await summary(org)).toEqual({ merchantId: org.organizationId, balances: [] });
    await pay(org, 100, 'EUR');
    expect((await summary(org)).balances).toEqual([{ currency: 'EUR', available: 0, pending: 95, reserved: 0, inTransit: 0, paidOut: 0, owed: 0 }]);
    expect(await release(org)).toBe(1);
    expect((await summary(org)).balances).toEqual([{ currency: 'EUR', available: 95, pending: 0, reserved: 0, inTransit: 0, paidOut: 0, owed: 0 }]);
    await expectLedgerConsistent(org);
  });

  it("lets a parent key read its sub-merchant's summary and answers 403 for a merchant outside the key's scope", async () => {
    const org = await organizationAccount('Parent shop');
    const sub = await subMerchant(org.merchantApiKey);
    const own = await call('GET', `${M(sub.id)}/balances/summary`, { key: org.merchantApiKey });
    expect(own.status, own.text).toBe(200);
    expect(own.json).toEqual({ merchantId: sub.id, balances: [] });
    const foreign = await call('GET', `${M(randomUUID())}/balances/summary`, { key: org.merchantApiKey });
    expect(foreign.status).toBe(403);
  });
});

describe('payout methods', () => {
  it('adds a bank account keeping only its last four, lists it on both faces and turns the activation step done', async () => {
    const org = await organizationAccount('Bank shop');
    const before = await call('GET', M(org.organizationId), { key: org.merchantApiKey });
    expect(before.json.activation.steps).toContainEqual(expect.objectContaining({ key: 'payout_method_added', done: false }));

    const res = await addMethod(org);
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toEqual({
      id: expect.stringMatching(/^pom_[0-9a-f]{32}$/),
      type: 'bank-account',
      holderName: 'Jane Seller',
      country: 'DE',
      currency: 'EUR',
      last4: '3000',
      status: 'verified',
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(res.json)).not.toContain('0532013000');

    const orgList = await orgCall('GET', `${orgPath(org.organizationId)}/payout-methods`, { fullKey: org.fullKey });
    expect(orgList.status).toBe(200);
    expect(orgList.json).toMatchObject({ type: 'list', totalCount: 1, data: [res.json.data] });
    const merchantList = await call('GET', `${M(org.organizationId)}/payouts/payout-methods`, { key: org.merchantApiKey });
    expect(merchantList.status).toBe(200);
    expect(merchantList.json).toEqual({ data: [res.json.data] });

    const after = await call('GET', M(org.organizationId), { key: org.merchantApiKey });
    expect(after.json.activation.steps).toContainEqual(expect.objectContaining({ key: 'payout_method_added', done: true }));
  });

  it('refuses a bad IBAN checksum, an IBAN of another country, a local number without routing number, and a bad body with 400, adding nothing', async () => {
    const org = await organizationAccount('Bad bank shop');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ accountNumber: 'DE89370400440532013001' }, 'payout_method.invalid_account_number'],
      [{ country: 'FR' }, 'payout_method.invalid_account_number'],
      [{ country: 'US', currency: 'USD', accountNumber: '000123456789' }, 'payout_method.routing_number_required'],
      [{ country: 'US', currency: 'USD', accountNumber: '12ab' }, 'payout_method.invalid_account_number'],
      [{ accountNumber: 'DE89<script>' }, 'request.validation_failed'],
      [{ country: 'XX' }, 'request.validation_failed'],
      [{ currency: 'EURO' }, 'request.validation_failed'],
      [{ holderName: '  ' }, 'request.validation_failed'],
      [{ type: 'card' }, 'request.validation_failed'],
    ];
    for (const [body, code] of cases) {
      const res = await addMethod(org, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errorCode, JSON.stringify(body)).toBe(code);
    }
    const list = await orgCall('GET', `${orgPath(org.organizationId)}/payout-methods`, { fullKey: org.fullKey });
    expect(list.json.totalCount).toBe(0);
  });

  it('keeps at most 10 payout methods: the eleventh is 422 payout_method.limit_reached, and a removal makes room', async () => {
    const org = await organizationAccount('Many banks shop');
    const added = [];
    for (let i = 0; i < 10; i++) {
      const res = await addMethod(org);
      expect(res.status, res.text).toBe(201);
      added.push(res.json.data.id as string);
    }
    const eleventh = await addMethod(org);
    expect(eleventh.status).toBe(422);
    expect(eleventh.json.errorCode).toBe('payout_method.limit_reached');
    expect((await orgCall('GET', `${orgPath(org.organizationId)}/payout-methods?limit=100`, { fullKey: org.fullKey })).json.totalCount).toBe(10);
    expect((await orgCall('DELETE', `${orgPath(org.organizationId)}/payout-methods/${added[0]}`, { fullKey: org.fullKey })).status).toBe(204);
    expect((await addMethod(org)).status).toBe(201);
  });

  it('counts concurrent additions exactly', async () => {
    const org = await organizationAccount('Concurrent banks shop');
    const answers = await Promise.all([1, 2, 3, 4].map(() => addMethod(org)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    const list = await orgCall('GET', `${orgPath(org.organizationId)}/payout-methods`, { fullKey: org.fullKey });
    expect(list.json.totalCount).toBe(4);
    for (const a of answers)
      expect((await orgCall('DELETE', `${orgPath(org.organizationId)}/payout-methods/${a.json.data.id}`, { fullKey: org.fullKey })).status).toBe(204);
    const merchant = await call('GET', M(org.organizationId), { key: org.merchantApiKey });
    expect(merchant.json.activation.steps).toContainEqual(expect.objectContaining({ key: 'payout_method_added', done: false }));
  });

  it('adds a local account number with a routing number, removes a method with 204 and answers 404 the second time', async () => {
    const org = await organizationAccount('Local bank shop');
    const res = await addMethod(org, { country: 'US', currency: 'USD', accountNumber: '000123456789', routingNumber: '021000021' });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ last4: '6789', currency: 'USD', country: 'US' });
    const path = `${orgPath(org.organizationId)}/payout-methods/${res.json.data.id}`;
    expect((await orgCall('DELETE', path, { fullKey: org.fullKey })).status).toBe(204);
    const again = await orgCall('DELETE', path, { fullKey: org.fullKey });
    expect(again.status).toBe(404);
    expect(again.json.errorCode).toBe('payout_method.not_found');
    const merchant = await call('GET', M(org.organizationId), { key: org.merchantApiKey });
    expect(merchant.json.activation.steps).toContainEqual(expect.objectContaining({ key: 'payout_method_added', done: false }));
  });
});

describe('payouts', () => {
  it('pays out with an Idempotency-Key, replays the same withdrawal for the same key and body, and refuses the key with another body', async () => {
    const { org, methodId } = await fundedShop(100);
    const key = randomUUID();
    const first = await payout(org, { payoutMethodId: methodId, amount: 30, currency: 'EUR' }, key);
    expect(first.status, first.text).toBe(201);
    expect(first.json).toEqual({
      withdrawalId: expect.stringMatching(/^po_[0-9a-f]{32}$/),
      merchantId: org.organizationId,
      status: 'pending',
      amount: 30,
      currency: 'EUR',
      payoutMethodId: methodId,
      payoutMethodLast4: '3000',
      externalWithdrawalId: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const replay = await payout(org, { payoutMethodId: methodId, amount: 30, currency: 'EUR' }, key);
    expect(replay.status).toBe(201);
    expect(replay.json).toEqual(first.json);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const other = await payout(org, { payoutMethodId: methodId, amount: 31, currency: 'EUR' }, key);
    expect(other.status).toBe(422);
    expect(other.json.code).toBe('idempotency.key_reused');

    expect((await summary(org)).balances[0]).toMatchObject({ available: 65, inTransit: 30 });
    const journals = await listJournals(org.organizationId);
    expect(journals.filter((j) => j.type === 'payout_requested')).toHaveLength(1);
    await expectLedgerConsistent(org);
  });

  it('refuses a payout without an Idempotency-Key or with one over 255 characters with 400, changing nothing', async () => {
    const { org, methodId } = await fundedShop(100);
    const missing = await payout(org, { payoutMethodId: methodId, amount: 10, currency: 'EUR' }, null);
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe('request.idempotency_key_required');
    const long = await payout(org, { payoutMethodId: methodId, amount: 10, currency: 'EUR' }, 'k'.repeat(256));
    expect(long.status).toBe(400);
    expect(long.json.code).toBe('request.invalid_idempotency_key');
    expect((await getBalance(org.organizationId, 'EUR')).available).toBe(9_500);
    const longest = await payout(org, { payoutMethodId: methodId, amount: 10, currency: 'EUR' }, 'k'.repeat(255));
    expect(longest.status, longest.text).toBe(201);
  });

  /** The claim of a payout of 10 EUR under `key` by an attempt that never finished, its lock ending at `lockedUntil`. */
  async function claimedByAnother(org: Org, methodId: string, key: string, lockedUntil: Date): Promise<string> {
    const now = new Date();
    const resourceId = newWithdrawalId();
    await transactWrite([
      [
        'idempotency',
        [
          putIdempotencyClaim({
            organizationId: org.organizationId,
            operation: PAYOUT_OPERATION,
            key,
            state: 'processing',
            attemptId: randomUUID(),
            requestHash: payoutFingerprint({ merchantId: org.organizationId, payoutMethodId: methodId, amountMinor: 1_000, currency: 'EUR' }),
            lockedUntil: lockedUntil.toISOString(),
            resourceId,
            answer: null,
            createdAt: now.toISOString(),
            updatedAt: now.toISOString(),
          }),
        ],
      ],
    ]);
    return resourceId;
  }

  it('answers 409 while a request with the same key is still in flight', async () => {
    const { org, methodId } = await fundedShop(100);
    const key = randomUUID();
    await claimedByAnother(org, methodId, key, new Date(Date.now() + 60_000));
    const res = await payout(org, { payoutMethodId: methodId, amount: 10, currency: 'EUR' }, key);
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('idempotency.in_progress');
    expect((await getBalance(org.organizationId, 'EUR')).available).toBe(9_500);
  });

  it('finishes the payout of a request that died after claiming its key, once its lock has passed: the withdrawal it named, once', async () => {
    const { org, methodId } = await fundedShop(100);
    const key = randomUUID();
    const claimed = await claimedByAnother(org, methodId, key, new Date(Date.now() - 1_000));
    const body = { payoutMethodId: methodId, amount: 10, currency: 'EUR' };
    const retry = await payout(org, body, key);
    expect(retry.status, retry.text).toBe(201);
    expect(retry.json.withdrawalId).toBe(claimed);
    const again = await payout(org, body, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.withdrawalId).toBe(claimed);
    expect((await listJournals(org.organizationId)).filter((j) => j.type === 'payout_requested')).toHaveLength(1);
    expect((await expectLedgerConsistent(org)).available).toBe(8_500);
  });

  it('gives one withdrawal to concurrent requests with the same key', async () => {
    const { org, methodId } = await fundedShop(100);
    const key = randomUUID();
    const answers = await Promise.all([1, 2, 3].map(() => payout(org, { payoutMethodId: methodId, amount: 10, currency: 'EUR' }, key)));
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of answers) expect([201, 409]).toContain(a.status);
    expect(new Set(created.map((a) => a.json.withdrawalId)).size).toBe(1);
    expect((await listJournals(org.organizationId)).filter((j) => j.type === 'payout_requested')).toHaveLength(1);
    expect((await expectLedgerConsistent(org)).available).toBe(8_500);
  });

  it("refuses a parent key's payout for its sub-merchant with the same 403 as any scope refusal", async () => {
    const org = await organizationAccount('Parent payout shop');
    const sub = await subMerchant(org.merchantApiKey);
    const parent = await payout(org, { payoutMethodId: `pom_${'0'.repeat(32)}`, amount: 10, currency: 'EUR' }, randomUUID(), org.merchantApiKey, sub.id);
    const foreign = await payout(org, { payoutMethodId: `pom_${'0'.repeat(32)}`, amount: 10, currency: 'EUR' }, randomUUID(), org.merchantApiKey, randomUUID());
    expect(parent.status).toBe(403);
    expect(foreign.status).toBe(403);
    expect(parent.json).toEqual(foreign.json);
  });

  it('refuses a payout above the available funds, in another currency, to an unknown method or below the minimum with 422, changing nothing', async () => {
    const { org, methodId } = await fundedShop(100);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ payoutMethodId: methodId, amount: 95.01, currency: 'EUR' }, 'payout.insufficient_funds'],
      [{ payoutMethodId: methodId, amount: 10, currency: 'USD' }, 'payout.currency_mismatch'],
      [{ payoutMethodId: `pom_${'1'.repeat(32)}`, amount: 10, currency: 'EUR' }, 'payout.unknown_payout_method'],
      [{ payoutMethodId: methodId, amount: 0.5, currency: 'EUR' }, 'payout.amount_below_minimum'],
    ];
    for (const [body, code] of cases) {
      const res = await payout(org, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.json.code, JSON.stringify(body)).toBe(code);
    }
    const bad = await payout(org, { payoutMethodId: methodId, amount: 10.001, currency: 'EUR' });
    expect(bad.status).toBe(400);
    expect((await listJournals(org.organizationId)).map((j) => j.type)).toEqual(['payment', 'release']);
    expect((await expectLedgerConsistent(org)).available).toBe(9_500);
  });

  it("lets a refused request's key succeed once the funds are there, and pays out everything available without an amount", async () => {
    const { org, methodId } = await fundedShop(100);
    const key = randomUUID();
    const body = { payoutMethodId: methodId, amount: 150, currency: 'EUR' };
    expect((await payout(org, body, key)).status).toBe(422);
    await pay(org, 100, 'EUR');
    await release(org);
    const later = await payout(org, body, key);
    expect(later.status, later.text).toBe(201);
    const all = await payout(org, { payoutMethodId: methodId, currency: 'EUR' });
    expect(all.status, all.text).toBe(201);
    expect(all.json.amount).toBe(40);
    expect((await expectLedgerConsistent(org)).available).toBe(0);
    const none = await payout(org, { payoutMethodId: methodId, currency: 'EUR' });
    expect(none.status).toBe(422);
    expect(none.json.code).toBe('payout.insufficient_funds');
  });

  it("frees a refused request's key for a corrected request, which then owns it", async () => {
    const { org, methodId } = await fundedShop(100);
    const key = randomUUID();
    const refused = await payout(org, { payoutMethodId: methodId, amount: 150, currency: 'EUR' }, key);
    expect(refused.json.code).toBe('payout.insufficient_funds');
    const corrected = { payoutMethodId: methodId, amount: 50, currency: 'EUR' };
    const paid = await payout(org, corrected, key);
    expect(paid.status, paid.text).toBe(201);
    const replayed = await payout(org, corrected, key);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.json.withdrawalId).toBe(paid.json.withdrawalId);
    const first = await payout(org, { payoutMethodId: methodId, amount: 150, currency: 'EUR' }, key);
    expect(first.json.code).toBe('idempotency.key_reused');
    expect((await expectLedgerConsistent(org)).available).toBe(4500);
  });

  it('pays out a request that waited on the key of a first request refused meanwhile, under a claim of its own', async () => {
    const { org, methodId } = await fundedShop(100);
    const key = randomUUID();
    // A first request of the same body holds the key, as if in flight; while this one waits, it is refused (its claim deleted).
    const first = await claimedByAnother(org, methodId, key, new Date(Date.now() + 60_000));
    const waiting = payout(org, { payoutMethodId: methodId, amount: 10, currency: 'EUR' }, key);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.send(new DeleteCommand({ TableName: tableName(), Key: idempotencyKey(org.organizationId, PAYOUT_OPERATION, key) }));
    const res = await waiting;
    expect(res.status, res.text).toBe(201);
    expect(res.json.withdrawalId).not.toBe(first);
    expect((await expectLedgerConsistent(org)).available).toBe(8_500);
  });

  it('gives at most one withdrawal to concurrent requests of one key, a refused one among them, and answers each in its shape', async () => {
    const { org, methodId } = await fundedShop(100);
    for (let round = 0; round < 5; round++) {
      const key = randomUUID();
      const refused = { payoutMethodId: methodId, amount: 500, currency: 'EUR' };
      const corrected = { payoutMethodId: methodId, amount: 1, currency: 'EUR' };
      const answers = await Promise.all([payout(org, refused, key), payout(org, corrected, key), payout(org, corrected, key), payout(org, refused, key)]);
      for (const a of answers) {
        expect([201, 409, 422], a.text).toContain(a.status);
        if (a.status === 422) expect(['payout.insufficient_funds', 'idempotency.key_reused']).toContain(a.json.code);
      }
      const paid = new Set(answers.filter((a) => a.status === 201).map((a) => a.json.withdrawalId));
      expect(paid.size).toBeLessThanOrEqual(1);
      // Whatever the order, the corrected request owns the key in the end unless a refused one holds it now: sent
      // again, it pays out (once) or is told the key is another request's.
      const again = await payout(org, corrected, key);
      if (again.status === 201 && paid.size === 1) expect(again.json.withdrawalId).toBe([...paid][0]);
    }
    const journals = (await listJournals(org.organizationId)).filter((j) => j.type === 'payout_requested');
    expect(journals.length).toBeGreaterThanOrEqual(1);
    expect(journals.length).toBeLessThanOrEqual(5);
    expect((await expectLedgerConsistent(org)).available).toBe(9_500 - journals.length * 100);
  });

  it('lets the key go at once when other writes or a busy table stop the payout, so the same request succeeds sent again', async () => {
    const { org, methodId } = await fundedShop(100);
    const merchant = (await getMerchant(org.organizationId))!;
    const body = { payoutMethodId: methodId, amount: 20, currency: 'EUR' };
    // The payout's own transaction (the claim of its key is a transaction of one item) is cancelled by other writes
    // every time until the contention budget is spent, or the table does not answer in time: nothing of it lands.
    const stoppedBy = {
      'payout.conflict': (items: number) =>
        Object.assign(new Error('Transaction cancelled'), {
          name: 'TransactionCanceledException',
          CancellationReasons: Array.from({ length: items }, (_, i) => ({ Code: i === 0 ? 'TransactionConflict' : 'None' })),
        }),
      TimeoutError: () => Object.assign(new Error('the table did not answer in time'), { name: 'TimeoutError' }),
    };
    for (const [stop, error] of Object.entries(stoppedBy)) {
      const key = randomUUID();
      const send = db.send.bind(db) as (command: unknown) => Promise<unknown>;
      vi.spyOn(db, 'send').mockImplementation((async (command: unknown) => {
        const items = command instanceof TransactWriteCommand ? (command.input.TransactItems ?? []).length : 0;
        if (items > 1) throw error(items);
        return send(command);
      }) as never);
      try {
        await expect(requestMerchantPayout(merchant, body, key)).rejects.toMatchObject(stop === 'TimeoutError' ? { name: stop } : { code: stop });
      } finally {
        vi.restoreAllMocks();
      }
      // Not 409 idempotency.in_progress for the key's 30 s lock: paid out at once.
      const again = await payout(org, body, key);
      expect(again.status, `${stop}: ${again.text}`).toBe(201);
    }
    expect((await expectLedgerConsistent(org)).available).toBe(5500);
  });

  it('never overdraws: of five concurrent payouts of 40 against 95 available, exactly two succeed', async () => {
    const { org, methodId } = await fundedShop(100);
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => payout(org, { payoutMethodId: methodId, amount: 40, currency: 'EUR' })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status, a.text).toBe(422);
      expect(a.json.code).toBe('payout.insufficient_funds');
    }
    const balance = await expectLedgerConsistent(org);
    expect(balance).toMatchObject({ available: 1_500, inTransit: 8_000 });
  });
});

describe('withdrawal statuses', () => {
  it('sends payout.sent when a payout goes in transit, then counts it paid out when paid', async () => {
    const { org, methodId } = await fundedShop(100);
    const receiver = await merchantEvents(org.organizationId, ['payout.sent']);

    const requested = await payout(org, { payoutMethodId: methodId, amount: 50, currency: 'EUR' });
    expect(requested.status, requested.text).toBe(201);
    const id = requested.json.withdrawalId as string;
    const sent = await advance(org, id, 'in_transit');
    expect(sent.status, sent.text).toBe(200);
    expect(sent.json).toMatchObject({ withdrawalId: id, status: 'in_transit', externalWithdrawalId: expect.stringMatching(/^wd_[0-9a-f]{24}$/) });

    const delivered = bodyOf(await eventually(() => receiver.received[0], 25_000, 'payout.sent'));
    expect(delivered).toEqual({
      merchantId: org.organizationId,
      payoutId: id,
      externalWithdrawalId: sent.json.externalWithdrawalId,
      status: 'in_transit',
      amount: 50,
      currency: 'eur',
    });

    const paid = await advance(org, id, 'paid');
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json.status).toBe('paid');
    expect((await summary(org)).balances[0]).toMatchObject({ available: 45, inTransit: 0, paidOut: 50 });
    const balance = await expectLedgerConsistent(org);
    expect(balance.paidOut).toBe(5_000);

    const again = await advance(org, id, 'failed');
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('payout.invalid_transition');
    expect((await getBalance(org.organizationId, 'EUR')).available).toBe(4_500);
  });

  it('returns the funds of a failed or canceled payout to available with a reversing journal, once', async () => {
    const { org, methodId } = await fundedShop(100);
    const a = await payout(org, { payoutMethodId: methodId, amount: 20, currency: 'EUR' });
    const b = await payout(org, { payoutMethodId: methodId, amount: 30, currency: 'EUR' });
    expect((await advance(org, a.json.withdrawalId, 'in_transit')).status).toBe(200);
    const failed = await Promise.all([1, 2, 3].map(() => advance(org, a.json.withdrawalId, 'failed')));
    expect(failed.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const canceled = await advance(org, b.json.withdrawalId, 'canceled');
    expect(canceled.status, canceled.text).toBe(200);
    expect(canceled.json.status).toBe('canceled');
    const journals = await listJournals(org.organizationId);
    expect(
      journals
        .filter((j) => j.type === 'payout_failed')
        .map((j) => j.reference)
        .sort(),
    ).toEqual([a.json.withdrawalId, b.json.withdrawalId].sort());
    expect(await expectLedgerConsistent(org)).toMatchObject({ available: 9_500, inTransit: 0, paidOut: 0 });
  });

  it('repays what the merchant came to owe meanwhile from a failed payout before anything is available again', async () => {
    const { org, methodId } = await fundedShop(100);
    const all = await payout(org, { payoutMethodId: methodId, currency: 'EUR' });
    expect(all.status, all.text).toBe(201);
    expect((await advance(org, all.json.withdrawalId, 'in_transit')).status).toBe(200);
    // A payment still pending is refunded in full while nothing is available: the merchant owes it.
    const paid = await payByCard(org, 50, 'EUR');
    const refund = await orgCall('POST', `${orgPath(org.organizationId)}/transactions/${paid.json.data.id}/refunds`, { fullKey: org.fullKey, body: {} });
    expect(refund.status, refund.text).toBe(201);
    const owing = await expectLedgerConsistent(org);
    expect(owing.owed).toBeGreaterThan(0);
    // The payout comes back: it repays the debt first.
    expect((await advance(org, all.json.withdrawalId, 'failed')).status).toBe(200);
    expect(await expectLedgerConsistent(org)).toMatchObject({ owed: 0, available: 9_500 - owing.owed, inTransit: 0 });
    // So no payout takes what the merchant owes.
    const again = await payout(org, { payoutMethodId: methodId, amount: 95, currency: 'EUR' });
    expect(again.status, again.text).toBe(422);
  });

  it("answers 404 for another merchant's payout and 400 for an unknown status", async () => {
    const { org, methodId } = await fundedShop(100);
    const other = await organizationAccount('Other payout shop');
    const res = await payout(org, { payoutMethodId: methodId, amount: 10, currency: 'EUR' });
    const foreign = await advance(other, res.json.withdrawalId, 'in_transit');
    expect(foreign.status).toBe(404);
    expect(foreign.json.code).toBe('payout.not_found');
    expect((await advance(org, res.json.withdrawalId, 'pending')).status).toBe(400);
    expect((await expectLedgerConsistent(org)).inTransit).toBe(1_000);
  });
});

describe('operator commands', () => {
  /** Each command is a process of its own that loads the platform's modules: seconds, not milliseconds. */
  const CLI_TIMEOUT = 60_000;
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => {
        throw new Error('the command succeeded');
      },
      (e: { code: number; stderr: string }) => e,
    );

  it(
    "release-funds releases one merchant's funds due by --as-of, once, and prints JSON",
    async () => {
      const org = await organizationAccount('CLI release shop');
      await pay(org, 100, 'EUR');
      const asOf = new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000).toISOString();
      const first = await adminCli({}, 'release-funds', '--as-of', asOf, '--merchant', org.organizationId, '--json');
      expect(JSON.parse(first.stdout)).toEqual({ released: 1, asOf, merchantId: org.organizationId });
      expect(await releaseDueFunds(new Date(asOf), { merchantId: org.organizationId })).toBe(0);
      expect(await expectLedgerConsistent(org)).toMatchObject({ available: 9_500, pending: 0 });
    },
    CLI_TIMEOUT,
  );

  it(
    'release-funds --as-of 2030-01-01T00:00:00Z --merchant <id> (the example of docs/reference-balances-payouts.md) releases funds due years before it, once',
    async () => {
      const org = await organizationAccount('CLI late release shop');
      await pay(org, 100, 'EUR');
      const first = await adminCli({}, 'release-funds', '--as-of', '2030-01-01T00:00:00Z', '--merchant', org.organizationId, '--json');
      expect(JSON.parse(first.stdout)).toEqual({ released: 1, asOf: '2030-01-01T00:00:00.000Z', merchantId: org.organizationId });
      const again = await adminCli({}, 'release-funds', '--as-of', '2030-01-01T00:00:00Z', '--merchant', org.organizationId, '--json');
      expect(JSON.parse(again.stdout)).toMatchObject({ released: 0 });
      expect(await expectLedgerConsistent(org)).toMatchObject({ available: 9_500, pending: 0 });
    },
    CLI_TIMEOUT,
  );

  // Live's refusal of a time later than now: test/customers/integration/tokenization-host.test.ts, on a live stack.
  it(
    'release-funds --help exits 0 and a bad --as-of is a usage error',
    async () => {
      expect((await adminCli({}, 'release-funds', '--help')).stdout).toContain('release-funds [--as-of');
      const bad = await failure(adminCli({}, 'release-funds', '--as-of', 'tomorrow'));
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('--as-of');
    },
    CLI_TIMEOUT,
  );

  it(
    'advance-payout moves a payout on and refuses a move its status does not allow',
    async () => {
      const { org, methodId } = await fundedShop(100);
      const requested = await payout(org, { payoutMethodId: methodId, amount: 25, currency: 'EUR' });
      const id = requested.json.withdrawalId as string;
      const sent = await adminCli({}, 'advance-payout', id, '--to', 'in_transit', '--json');
      expect(JSON.parse(sent.stdout)).toMatchObject({ withdrawalId: id, status: 'in_transit', externalWithdrawalId: expect.stringMatching(/^wd_/) });
      expect((await advance(org, id, 'paid')).status).toBe(200);
      const refused = await failure(adminCli({}, 'advance-payout', id, '--to', 'canceled'));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('cannot become canceled');
      // A malformed id is named as the argument it is, not as a flag.
      const malformed = await failure(adminCli({}, 'advance-payout', 'not-a-payout', '--to', 'paid'));
      expect(malformed.stderr).toContain('<withdrawalId> must be a payout id (po_…)');
      expect(await expectLedgerConsistent(org)).toMatchObject({ available: 7_000, paidOut: 2_500, inTransit: 0 });
    },
    CLI_TIMEOUT,
  );
});

describe('payouts list and detail', () => {
  const D = (merchantId: string) => `/v1/dashboard/merchants/${merchantId}`;

  it('lists the merchant’s payouts newest first with their statuses, in pages, and shows each one on its own, on both faces', async () => {
    const { org, methodId } = await fundedShop(100);
    const empty = await call('GET', `${M(org.organizationId)}/payouts`, { key: org.merchantApiKey });
    expect(empty.status, empty.text).toBe(200);
    expect(empty.json).toEqual({ data: [], pagination: { page: 1, limit: 20, totalCount: 0, totalPages: 0 } });

    const first = await payout(org, { payoutMethodId: methodId, amount: 10, currency: 'EUR' });
    const second = await payout(org, { payoutMethodId: methodId, amount: 20, currency: 'EUR' });
    expect([first.status, second.status]).toEqual([201, 201]);
    const sent = await advance(org, first.json.withdrawalId, 'in_transit');
    expect(sent.status, sent.text).toBe(200);

    const list = await call('GET', `${M(org.organizationId)}/payouts`, { key: org.merchantApiKey });
    expect(list.status, list.text).toBe(200);
    expect(list.json.pagination).toEqual({ page: 1, limit: 20, totalCount: 2, totalPages: 1 });
    expect(list.json.data).toEqual([second.json, sent.json]);
    expect(list.json.data.map((w: { status: string }) => w.status)).toEqual(['pending', 'in_transit']);

    const paged = await call('GET', `${M(org.organizationId)}/payouts?page=2&limit=1`, { key: org.merchantApiKey });
    expect(paged.status).toBe(200);
    expect(paged.json).toEqual({ data: [sent.json], pagination: { page: 2, limit: 1, totalCount: 2, totalPages: 2 } });
    const badPage = await call('GET', `${M(org.organizationId)}/payouts?limit=101`, { key: org.merchantApiKey });
    expect(badPage.status).toBe(400);

    const one = await call('GET', `${M(org.organizationId)}/payouts/${first.json.withdrawalId}`, { key: org.merchantApiKey });
    expect(one.status, one.text).toBe(200);
    expect(one.json).toEqual(sent.json);

    // The dashboard's twins answer the same to a member's session.
    const session = await call('POST', '/v1/dashboard/sessions', { body: { email: org.ownerEmail, password: PASSWORD } });
    expect(session.status, session.text).toBe(201);
    const token = session.json.token as string;
    const dashList = await call('GET', `${D(org.organizationId)}/payouts`, { key: token });
    expect(dashList.status, dashList.text).toBe(200);
    expect(dashList.json).toEqual(list.json);
    const dashOne = await call('GET', `${D(org.organizationId)}/payouts/${first.json.withdrawalId}`, { key: token });
    expect(dashOne.status).toBe(200);
    expect(dashOne.json).toEqual(sent.json);
  });

  it("answers 403 for another merchant's list and payout, and 404 for an unknown or foreign payout id", async () => {
    const { org, methodId } = await fundedShop(100);
    const other = await organizationAccount('Other payout shop');
    const made = await payout(org, { payoutMethodId: methodId, amount: 10, currency: 'EUR' });
    expect(made.status).toBe(201);
    const id = made.json.withdrawalId as string;

    const foreignList = await call('GET', `${M(org.organizationId)}/payouts`, { key: other.merchantApiKey });
    const foreignOne = await call('GET', `${M(org.organizationId)}/payouts/${id}`, { key: other.merchantApiKey });
    expect(foreignList.status).toBe(403);
    expect(foreignOne.status).toBe(403);
    expect(foreignOne.json.code).toBe(foreignList.json.code);

    for (const unknown of [newWithdrawalId(), id.replace(/.$/, (c) => (c === '0' ? '1' : '0')), 'po_nope', 'x'.repeat(200)]) {
      const res = await call('GET', `${M(org.organizationId)}/payouts/${unknown}`, { key: org.merchantApiKey });
      expect(res.status, unknown).toBe(404);
      expect(res.json.code).toBe('payout.not_found');
    }
    // Another merchant's payout through its own merchant path: not found, never shown.
    const crossed = await call('GET', `${M(other.organizationId)}/payouts/${id}`, { key: other.merchantApiKey });
    expect(crossed.status).toBe(404);

    const stranger = await call('POST', '/v1/dashboard/sessions', { body: { email: other.ownerEmail, password: PASSWORD } });
    const token = stranger.json.token as string;
    expect((await call('GET', `/v1/dashboard/merchants/${org.organizationId}/payouts`, { key: token })).status).toBe(403);
    expect((await call('GET', `/v1/dashboard/merchants/${org.organizationId}/payouts/${id}`, { key: token })).status).toBe(403);
    const ownUnknown = await call('GET', `/v1/dashboard/merchants/${other.organizationId}/payouts/${id}`, { key: token });
    expect(ownUnknown.status).toBe(404);
  });
});
