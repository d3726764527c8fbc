/**
 * Nothing strands between the processor and the ledger: an operation stopped right after the processor answered
 * (the test-only fault point) is settled by the reconciler from the processor's own record; one the processor has
 * no record of is failed with its amount given back, unless it is a prorated cancellation's refund (which no
 * request retries), made then, once; and 50 refunds without a key at once all settle (as they are answered, or those
 * answered `pending` by the reconciler), with the processor's refunded total equal to the ledger's.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../shared/platform/db/client.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getIdempotencyRecord } from '../../../shared/platform/db/idempotency.ts';
import { getBalance, listJournals } from '../../../shared/money/ledger.repository.ts';
import { getMerchant } from '../../../shared/people/merchants.repository.ts';
import { getRefund, listRefunds } from '../../../shared/payments/refunds.repository.ts';
import { getTransaction } from '../../../shared/payments/transactions.repository.ts';
import { listUnsettled } from '../../../shared/payments/unsettled.repository.ts';
import { balancesOf, isBalanced } from '../../../shared/money/ledger.rules.ts';
import { processorRefundKey } from '../../../shared/payments/refunds.rules.ts';
import { sandboxProcessor } from '../../../shared/processor/sandbox-processor.ts';
import { sandboxRefundedMinor, sandboxRefundProcessor } from '../../../shared/processor/sandbox-refunds.ts';
import { faultPoints } from '../../../shared/payments/fault-points.service.ts';
import { RECONCILE_AFTER_SECONDS, reconcile } from '../../../shared/reconciliation/reconcile.service.ts';
import { createRefund } from '../../../shared/payments/refunds.service.ts';
import { createTransaction } from '../../../shared/payments/transactions.service.ts';
import { createCancellation } from '../../../shared/subscriptions/cancellations.service.ts';
import { adminCli, cardToken, NO_TAX_PLACE, organizationAccount, orgCall, orgPath, orgPlan, payByCard } from '../../support/fixtures.ts';

/** What a crash looks like to the code that was running. */
class Crash extends Error {}

const crashAfterProcessor = (operation: 'charge' | 'refund') => {
  faultPoints.afterProcessor = (op) => {
    if (op === operation) throw new Crash('stopped after the processor answered');
  };
};

afterEach(() => {
  delete faultPoints.afterProcessor;
  vi.restoreAllMocks();
});

/** A reconciler run late enough that everything claimed until now is due. */
const reconcileNow = (organizationId: string) => reconcile(new Date(Date.now() + (RECONCILE_AFTER_SECONDS + 1) * 1000), { organizationId });

async function shopWithPayment(amount: number) {
  const org = await organizationAccount('Reconciled shop');
  const paid = await payByCard(org, amount);
  expect(paid.status, paid.text).toBe(201);
  const organization = (await getMerchant(org.organizationId))!;
  return { org, organization, transactionId: paid.json.data.id as string, chargeId: paid.json.data.externalTransactionId as string };
}

/** Every journal balanced and the balance equal to the journals; the ledger's refunds (minor units). */
async function ledgerOf(merchantId: string, currency = 'USD') {
  const journals = await listJournals(merchantId);
  for (const j of journals) expect(isBalanced(j.entries), j.id).toBe(true);
  expect(await getBalance(merchantId, currency)).toEqual(
    balancesOf(
      merchantId,
      journals.filter((j) => j.currency === currency),
    ),
  );
  const refundedMinor = journals
    .filter((j) => j.type === 'refund')
    .flatMap((j) => j.entries)
    .filter((e) => e.account === 'platform:cash')
    .reduce((n, e) => n - e.amount, 0);
  return { journals, refundedMinor };
}

describe('reconciler', () => {
  it("settles a refund stopped right after the processor refunded it, from the processor's record, once", async () => {
    const { org, organization, transactionId, chargeId } = await shopWithPayment(100);
    crashAfterProcessor('refund');
    await expect(createRefund(organization, transactionId, { amount: 30 }, 'api')).rejects.toBeInstanceOf(Crash);
    delete faultPoints.afterProcessor;

    // Stranded as a crash leaves it: the processor gave 30.00 back, the platform's refund is still pending.
    const [stranded] = await listRefunds(transactionId);
    expect(stranded).toMatchObject({ status: 'pending', externalRefundId: null });
    expect(await sandboxRefundedMinor(chargeId)).toBe(3_000);
    expect((await ledgerOf(org.organizationId)).refundedMinor).toBe(0);
    // It waits for the reconciler's bound: a run now leaves it alone.
    expect(await reconcile(new Date(), { organizationId: org.organizationId })).toMatchObject({ refunds: { settled: 0, failed: 0, left: 0 } });

    expect(await reconcileNow(org.organizationId)).toMatchObject({ refunds: { settled: 1, failed: 0, left: 0 }, charges: { settled: 0, failed: 0, left: 0 } });
    const settled = await getRefund(transactionId, stranded!.id);
    expect(settled).toMatchObject({ status: 'refunded', externalRefundId: expect.stringMatching(/^re_/) });
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({
      status: 'partially-refunded',
      refundedMinor: 3_000,
      refundSettledMinor: 3_000,
    });
    expect((await ledgerOf(org.organizationId)).refundedMinor).toBe(3_000);
    expect(await listUnsettled(new Date(Date.now() + 86_400_000).toISOString(), org.organizationId)).toEqual([]);

    // A second run finds nothing left.
    expect(await reconcileNow(org.organizationId)).toMatchObject({ refunds: { settled: 0, failed: 0, left: 0 } });
  });

  it('settles a keyed refund and completes its key, so the same request replays the settled refund', async () => {
    const { org, organization, transactionId } = await shopWithPayment(50);
    const key = `refund-${randomUUID()}`;
    crashAfterProcessor('refund');
    await expect(createRefund(organization, transactionId, { amount: 20 }, 'api', key)).rejects.toBeInstanceOf(Crash);
    delete faultPoints.afterProcessor;

    expect(await reconcileNow(org.organizationId)).toMatchObject({ refunds: { settled: 1 } });
    expect(await getIdempotencyRecord(org.organizationId, 'refunds', key)).toMatchObject({ state: 'completed' });
    const again = await orgCall('POST', `${orgPath(org.organizationId)}/transactions/${transactionId}/refunds`, {
      fullKey: org.fullKey,
      body: { amount: 20 },
      headers: { 'idempotency-key': key },
    });
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.data).toMatchObject({ amount: 20, status: 'refunded', idempotencyKey: key });
    expect(await listRefunds(transactionId)).toHaveLength(1);
  });

  it('fails a refund the processor has no record of and gives its reservation back', async () => {
    const { org, organization, transactionId, chargeId } = await shopWithPayment(40);
    // The processor never answered (nor recorded anything): without a key, nothing could resume the refund.
    vi.spyOn(sandboxRefundProcessor, 'refund').mockRejectedValue(Object.assign(new Error('connect ECONNREFUSED'), { name: 'ConnectError' }));
    await expect(createRefund(organization, transactionId, { amount: 10 }, 'api')).rejects.toMatchObject({ code: 'refund.processor_unreachable' });
    vi.restoreAllMocks();
    const [stranded] = await listRefunds(transactionId);
    expect(stranded!.status).toBe('pending');
    expect(await sandboxRefundProcessor.findRefund(processorRefundKey(stranded!.id))).toBeNull();

    expect(await reconcileNow(org.organizationId)).toMatchObject({ refunds: { settled: 0, failed: 1, left: 0 } });
    expect(await getRefund(transactionId, stranded!.id)).toMatchObject({ status: 'failed', failure: { code: 'processor_no_record' } });
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({ status: 'completed', refundedMinor: 0 });
    expect(await sandboxRefundedMinor(chargeId)).toBe(0);
    expect((await ledgerOf(org.organizationId)).refundedMinor).toBe(0);
    // The whole amount can be refunded again.
    expect((await createRefund(organization, transactionId, {}, 'api')).refund).toMatchObject({ amount: 40, status: 'refunded' });
  });

  it("fails a merchant's keyed refund the processor has no record of too: its caller may have asked again under another key", async () => {
    const { org, organization, transactionId, chargeId } = await shopWithPayment(40);
    const key = `refund-${randomUUID()}`;
    vi.spyOn(sandboxRefundProcessor, 'refund').mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { name: 'ConnectError' }));
    await expect(createRefund(organization, transactionId, { amount: 10 }, 'api', key)).rejects.toMatchObject({ code: 'refund.processor_unreachable' });
    // Asked again under another key (as the dashboard's form does): made.
    expect((await createRefund(organization, transactionId, { amount: 10 }, 'api', `refund-${randomUUID()}`)).refund).toMatchObject({ status: 'refunded' });
    const stranded = (await listRefunds(transactionId)).find((r) => r.idempotencyKey === key)!;
    expect(stranded.status).toBe('pending');

    expect(await reconcileNow(org.organizationId)).toMatchObject({ refunds: { settled: 0, failed: 1, left: 0 } });
    expect(await getRefund(transactionId, stranded.id)).toMatchObject({ status: 'failed', failure: { code: 'processor_no_record' } });
    expect(await sandboxRefundedMinor(chargeId)).toBe(1000);
    expect((await ledgerOf(org.organizationId)).refundedMinor).toBe(1000);
  });

  it("makes a prorated cancellation's refund the processor never got: the subscription ended, the buyer is given back its unused time", async () => {
    const org = await organizationAccount('Reconciled cancellation');
    const organization = (await getMerchant(org.organizationId))!;
    const plan = await orgPlan(org, { pricing: { price: 10, formula: 'fixed-fee' } }, { productType: 'recurring' });
    const api = (method: string, path: string, body?: unknown) => orgCall(method, `${orgPath(org.organizationId)}${path}`, { fullKey: org.fullKey, body });
    const customer = await api('POST', '/customers', {
      email: `reconciled-${randomUUID()}@example.com`,
      primaryAddress: { customerAddress: { country: 'US', region: 'OR' } },
    });
    const card = await api('POST', `/customers/${customer.json.data.id}/payment-instruments`, { token: await cardToken(org) });
    const sub = await api('POST', '/subscriptions', { customerId: customer.json.data.id, paymentInstrumentId: card.json.data.id, items: [{ plan: plan.id }] });
    expect(sub.status, sub.text).toBe(201);
    const [payment] = (await api('GET', `/transactions?subscriptionId=${sub.json.data.id}`)).json.data as Array<{ id: string; externalTransactionId: string }>;
    // Cancelled at once, prorated, while the processor does not answer: it ends, its refund claimed and left pending.
    vi.spyOn(sandboxRefundProcessor, 'refund').mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { name: 'ConnectError' }));
    const cancelled = await createCancellation(organization, { subscriptionId: sub.json.data.id, churnTimePolicy: 'now', prorated: true });
    expect(cancelled.status).toBe('completed');
    const [stranded] = await listRefunds(payment!.id);
    expect(stranded).toMatchObject({ status: 'pending' });

    expect(await reconcileNow(org.organizationId)).toMatchObject({ refunds: { settled: 1, failed: 0, left: 0 } });
    expect(await getRefund(payment!.id, stranded!.id)).toMatchObject({ status: 'refunded' });
    expect(await sandboxRefundedMinor(payment!.externalTransactionId)).toBe(stranded!.amountMinor);
    expect(stranded!.amountMinor).toBeGreaterThan(900);
  });

  it("settles a charge stopped right after the processor charged it: the payment, its ledger and its key's answer", async () => {
    const org = await organizationAccount('Reconciled charges');
    const organization = (await getMerchant(org.organizationId))!;
    const token = await cardToken(org);
    const body = { idempotencyKey: randomUUID(), amount: 25, currency: 'USD', token, billingAddress: NO_TAX_PLACE };
    crashAfterProcessor('charge');
    await expect(createTransaction(organization, body)).rejects.toBeInstanceOf(Crash);
    delete faultPoints.afterProcessor;
    const [unsettled] = await listUnsettled(new Date(Date.now() + 86_400_000).toISOString(), org.organizationId);
    expect(unsettled).toMatchObject({ operation: 'charge', transaction: { status: 'sending' } });

    expect(await reconcileNow(org.organizationId)).toMatchObject({ charges: { settled: 1, failed: 0, left: 0 } });
    const transactionId = unsettled!.operation === 'charge' ? unsettled!.transaction.id : '';
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({
      status: 'completed',
      externalTransactionId: expect.stringMatching(/^pay_/),
    });
    const { journals } = await ledgerOf(org.organizationId);
    expect(journals.map((j) => j.type)).toEqual(['payment']);
    // The same request replays the payment the reconciler recorded, and charges nothing more.
    const again = await orgCall('POST', '/transactions', { fullKey: org.fullKey, body });
    expect(again.status, again.text).toBe(201);
    expect(again.json.data).toMatchObject({ id: transactionId, status: 'completed', amount: 25 });
  });

  it('fails a charge the processor has no record of: nothing charged, its answer a processor error', async () => {
    const org = await organizationAccount('Unreached processor');
    const organization = (await getMerchant(org.organizationId))!;
    const token = await cardToken(org);
    const body = { idempotencyKey: randomUUID(), amount: 12, currency: 'USD', token, billingAddress: NO_TAX_PLACE };
    vi.spyOn(sandboxProcessor, 'charge').mockRejectedValue(Object.assign(new Error('socket hang up'), { name: 'ConnectError' }));
    await expect(createTransaction(organization, body)).rejects.toMatchObject({ code: 'payment.processor_unreachable' });
    vi.restoreAllMocks();

    expect(await reconcileNow(org.organizationId)).toMatchObject({ charges: { settled: 0, failed: 1, left: 0 } });
    const again = await orgCall('POST', '/transactions', { fullKey: org.fullKey, body });
    expect(again.status).toBe(502);
    expect(again.json).toMatchObject({ errorCode: 'payment.processor_error' });
    expect(again.json.message).toContain('no record of this payment');
    expect((await ledgerOf(org.organizationId)).journals).toEqual([]);
  });
});

describe('refunds at once without a key', () => {
  it("50 refunds of one payment at once: each answered with its own result, none left pending once the reconciler ran, the processor's total equal to the ledger's", async () => {
    const { org, transactionId, chargeId } = await shopWithPayment(100);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        orgCall('POST', `${orgPath(org.organizationId)}/transactions/${transactionId}/refunds`, { fullKey: org.fullKey, body: { amount: 3 } }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    // 33 refunds of 3.00 fit in 100.00; the others are refused for the amount, never with another request's 409.
    expect(statuses.filter((s) => s === 201)).toHaveLength(33);
    expect(
      statuses.filter((s) => s !== 201).every((s) => s === 422),
      JSON.stringify(answers.filter((a) => a.status !== 201 && a.status !== 422).map((a) => a.text)),
    ).toBe(true);
    // Each settled as it was answered, or, where the settlements of one payment kept conflicting past the request's
    // budget (a loaded machine), answered `pending` and settled by the reconciler (docs/reference-payments.md).
    const answered = answers.filter((a) => a.status === 201).map((a) => a.json.data.status);
    expect(answered.filter((s) => s !== 'refunded' && s !== 'pending')).toEqual([]);
    const pending = answered.filter((s) => s === 'pending').length;
    expect(await reconcileNow(org.organizationId)).toMatchObject({ refunds: { settled: pending, failed: 0, left: 0 } });

    const refunds = await listRefunds(transactionId);
    expect(refunds.filter((r) => r.status === 'pending')).toEqual([]);
    const refundedMinor = refunds.filter((r) => r.status === 'refunded').reduce((n, r) => n + r.amountMinor, 0);
    expect(refundedMinor).toBe(9_900);
    expect(await sandboxRefundedMinor(chargeId)).toBe(refundedMinor);
    expect((await ledgerOf(org.organizationId)).refundedMinor).toBe(refundedMinor);
    expect(await getTransaction(org.organizationId, transactionId)).toMatchObject({
      status: 'partially-refunded',
      refundedMinor: 9_900,
      refundSettledMinor: 9_900,
    });
  }, 60_000);
});

describe('reconcile command', () => {
  // Live's refusal of a later --as-of: test/customers/integration/tokenization-host.test.ts, on a live stack.
  it('prints what it settled as JSON', async () => {
    const { org, organization, transactionId } = await shopWithPayment(20);
    crashAfterProcessor('refund');
    await expect(createRefund(organization, transactionId, { amount: 5 }, 'api')).rejects.toBeInstanceOf(Crash);
    delete faultPoints.afterProcessor;
    const asOf = new Date(Date.now() + (RECONCILE_AFTER_SECONDS + 1) * 1000).toISOString();
    const { stdout } = await adminCli({}, 'reconcile', '--as-of', asOf, '--merchant', org.organizationId, '--json');
    expect(JSON.parse(stdout)).toEqual({
      asOf,
      charges: { settled: 0, failed: 0, left: 0 },
      refunds: { settled: 1, failed: 0, left: 0 },
      // One merchant's run checks its ledger too: the balances are the sum of its journals.
      ledger: [{ currency: 'USD', balances: expect.any(Object), journals: expect.any(Object), matches: true, unbalancedJournalIds: [] }],
    });
    expect((await listRefunds(transactionId))[0]!.status).toBe('refunded');
  }, 60_000);

  it("with --merchant, finds a balance that is not the sum of the merchant's journals, and exits 1", async () => {
    const { org } = await shopWithPayment(20);
    const tamper = (minor: number) =>
      db.send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: `MERCHANT#${org.organizationId}`, sk: 'BALANCE#USD' },
          UpdateExpression: 'ADD available :n',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':n': minor },
        }),
      );
    // 5.00 more available than any journal booked.
    await tamper(500);
    const failed = await adminCli({}, 'reconcile', '--merchant', org.organizationId, '--json').then(
      () => null,
      (e: { code: number; stdout: string }) => e,
    );
    await tamper(-500);
    expect(failed?.code).toBe(1);
    const [usd] = JSON.parse(failed!.stdout).ledger;
    expect(usd).toMatchObject({ currency: 'USD', matches: false, unbalancedJournalIds: [] });
    expect(usd.balances.available - usd.journals.available).toBe(500);
    const { stdout } = await adminCli({}, 'reconcile', '--merchant', org.organizationId);
    expect(stdout).toContain('Ledger USD: the balances are the sum of the journals.');
  }, 60_000);
});
