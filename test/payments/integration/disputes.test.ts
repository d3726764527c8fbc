/**
 * Disputes and dispute alerts through the local gateway: the organization API's create (validation, the
 * transaction's rules, repeats and races), get and list; the sandbox processor opening and advancing disputes and
 * raising alerts; the events a merchant receives; and the ledger's reserve under each status change.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listDisputeAlerts } from '../../../shared/payments/dispute-alerts.repository.ts';
import { getBalance, listJournals } from '../../../shared/money/ledger.repository.ts';
import { balancesOf, HOLD_DAYS, isBalanced } from '../../../shared/money/ledger.rules.ts';
import { createDisputeAlert } from '../../../shared/payments/dispute-alerts.service.ts';
import { advanceDispute } from '../../../shared/payments/disputes.service.ts';
import { releaseDueFunds } from '../../../shared/money/ledger.service.ts';
import { advanceSandboxDispute, openSandboxDispute } from '../../../shared/payments/sandbox-disputes.service.ts';
import { testCards } from '../../support/cards.ts';
import { adminCli, organizationAccount, orgCall, orgPath, payByCard } from '../../support/fixtures.ts';
import { bodyOf, eventually, merchantEvents, type Received } from '../../support/receiver.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;

async function pay(org: Org, amount: number, currency: string, card: string = testCards.succeeds) {
  const res = await payByCard(org, amount, currency, card);
  if (res.status !== 201) {
    // A decline names its recorded transaction in the details.
    const id = /transactionId: ([0-9a-f-]{36})/.exec(String(res.json.details))?.[1];
    if (!id) throw new Error(`payment failed: ${res.status} ${res.text}`);
    return { id, externalTransactionId: null, amount, currency, status: 'declined' };
  }
  return res.json.data as { id: string; externalTransactionId: string | null; amount: number; currency: string; status: string };
}

const disputeId = () => `dsp-${randomUUID()}`;
const create = (org: Org, id: string, body: Record<string, unknown>) =>
  orgCall('POST', `${orgPath(org.organizationId)}/disputes/${id}`, { fullKey: org.fullKey, body });
const get = (org: Org, id: string) => orgCall('GET', `${orgPath(org.organizationId)}/disputes/${id}`, { fullKey: org.fullKey });
const list = (org: Org, query = '') => orgCall('GET', `${orgPath(org.organizationId)}/disputes${query}`, { fullKey: org.fullKey });

const eventsOf = async (r: { received: Received[] }, n: number, what: string) =>
  (await eventually(() => (r.received.length >= n ? r.received : undefined), 25_000, what)).map(bodyOf);

/** The ledger's invariant for the merchant: every journal balanced, the balance item the sum of the entries. */
async function ledgerHolds(org: Org, currency: string) {
  const journals = await listJournals(org.organizationId);
  expect(journals.every((j) => isBalanced(j.entries))).toBe(true);
  const balance = await getBalance(org.organizationId, currency);
  expect(balance).toEqual(
    balancesOf(
      org.organizationId,
      journals.filter((j) => j.currency === currency),
    ),
  );
  return { journals, balance };
}

describe('disputes: organization API create, get and list', () => {
  it('records a dispute of a completed transaction, reserves its amount and answers it on get', async () => {
    const org = await organizationAccount('Dispute shop');
    const t = await pay(org, 80, 'USD');
    const id = disputeId();
    const res = await create(org, id, {
      transactionId: t.id,
      currency: 'USD',
      amount: 30.5,
      reasonCode: '10.4',
      type: 'fraud',
      status: 'response-needed',
      postedAt: '2026-01-05T10:00:00Z',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({
      id,
      organizationId: org.organizationId,
      transactionId: t.id,
      externalDisputeId: null,
      caseId: null,
      status: 'response-needed',
      category: 'fraud',
      type: 'fraud',
      reasonCode: '10.4',
      amount: 30.5,
      currency: 'USD',
      gatewaySlug: 'default',
      postedAt: '2026-01-05T10:00:00.000Z',
      deadlineAt: '2026-01-12T10:00:00.000Z',
      resolvedAt: null,
      deletedAt: null,
    });
    const read = await get(org, id);
    expect(read.status).toBe(200);
    expect(read.json.data).toEqual(res.json.data);

    // The payment's net is still pending: the whole disputed amount is reserved and owed.
    const { journals, balance } = await ledgerHolds(org, 'USD');
    expect(journals.map((j) => j.type)).toEqual(['payment', 'dispute_opened']);
    expect(balance).toMatchObject({ pending: 7_600, available: 0, reserved: 3_050, owed: 3_050 });
  });

  it('refuses a transactionId of 51 characters, unknown enums and a decided status with 400, and records nothing', async () => {
    const org = await organizationAccount('Dispute validation');
    const t = await pay(org, 10, 'EUR');
    const base = { transactionId: t.id, currency: 'EUR', amount: 5 };
    const refusals = [
      { ...base, transactionId: 'x'.repeat(51) },
      { ...base, type: 'friendly-fraud' },
      { ...base, status: 'pending' },
      { ...base, status: 'won' },
      { ...base, amount: 0 },
      { ...base, amount: 1.234 },
      { ...base, currency: 'usd' },
      { ...base, extra: true },
    ];
    for (const body of refusals) {
      const res = await create(org, disputeId(), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.errorCode).toBe('request.validation_failed');
    }
    const badId = await create(org, 'has.dots', base);
    expect(badId.status).toBe(400);
    expect(badId.json.errorCode).toBe('dispute.invalid_id');
    // At the limit the id is accepted and looked up: 50 characters of no transaction.
    const atLimit = await create(org, disputeId(), { ...base, transactionId: 'x'.repeat(50) });
    expect(atLimit.status).toBe(404);
    expect(atLimit.json.errorCode).toBe('transaction.not_found');

    expect((await list(org)).json.totalCount).toBe(0);
    expect((await listJournals(org.organizationId)).map((j) => j.type)).toEqual(['payment']);
  });

  it("refuses another organization's or a declined transaction, another currency and more than the amount, changing nothing", async () => {
    const org = await organizationAccount('Dispute rules');
    const other = await organizationAccount('Other shop');
    const mine = await pay(org, 20, 'USD');
    const declined = await pay(org, 20, 'USD', testCards.insufficientFunds);
    const theirs = await pay(other, 20, 'USD');
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ transactionId: theirs.id, currency: 'USD', amount: 5 }, 404, 'transaction.not_found'],
      [{ transactionId: declined.id, currency: 'USD', amount: 5 }, 422, 'dispute.transaction_not_disputable'],
      [{ transactionId: mine.id, currency: 'EUR', amount: 5 }, 422, 'dispute.currency_mismatch'],
      [{ transactionId: mine.id, currency: 'USD', amount: 20.01 }, 422, 'dispute.amount_exceeds_transaction'],
    ];
    for (const [body, status, code] of cases) {
      const res = await create(org, disputeId(), body);
      expect(res.status, code).toBe(status);
      expect(res.json.errorCode).toBe(code);
    }
    expect((await list(org)).json.totalCount).toBe(0);
    expect((await listJournals(org.organizationId)).map((j) => j.type)).toEqual(['payment']);
    // At the limit: the whole amount may be disputed.
    expect((await create(org, disputeId(), { transactionId: mine.id, currency: 'USD', amount: 20 })).status).toBe(201);
  });

  it("bounds a dispute by what the transaction's refunds left of it", async () => {
    const org = await organizationAccount('Refunded shop');
    const t = await pay(org, 50, 'USD');
    const refunded = await orgCall('POST', `${orgPath(org.organizationId)}/transactions/${t.id}/refunds`, {
      fullKey: org.fullKey,
      body: { amount: 20 },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(refunded.status, refunded.text).toBe(201);
    const over = await create(org, disputeId(), { transactionId: t.id, currency: 'USD', amount: 30.01 });
    expect(over.status).toBe(422);
    expect(over.json.errorCode).toBe('dispute.amount_exceeds_transaction');
    const left = await create(org, disputeId(), { transactionId: t.id, currency: 'USD', amount: 30 });
    expect(left.status, left.text).toBe(201);
    await ledgerHolds(org, 'USD');
  });

  it('refuses to refund a disputed payment, so a refund and a dispute never take the same money twice', async () => {
    const org = await organizationAccount('Disputed shop');
    const t = await pay(org, 50, 'USD');
    expect((await create(org, disputeId(), { transactionId: t.id, currency: 'USD', amount: 50 })).status).toBe(201);
    const refund = await orgCall('POST', `${orgPath(org.organizationId)}/transactions/${t.id}/refunds`, { fullKey: org.fullKey, body: { amount: 10 } });
    expect(refund.status).toBe(422);
    expect(refund.json.errorCode).toBe('refund.transaction_disputed');
    const refunds = await orgCall('GET', `${orgPath(org.organizationId)}/transactions/${t.id}/refunds`, { fullKey: org.fullKey });
    expect(refunds.json.data).toEqual([]);
    await ledgerHolds(org, 'USD');
  });

  it('refunds what a decided dispute left: all of it once won, the rest once lost; never what the chargeback took', async () => {
    const org = await organizationAccount('Decided disputes shop');
    const refund = (t: { id: string }, body: object) =>
      orgCall('POST', `${orgPath(org.organizationId)}/transactions/${t.id}/refunds`, { fullKey: org.fullKey, body });
    // Won: the payment is the merchant's again, and may be refunded in full.
    const won = await pay(org, 40, 'USD');
    const a = disputeId();
    expect((await create(org, a, { transactionId: won.id, currency: 'USD', amount: 40 })).status).toBe(201);
    await advanceDispute(org.organizationId, a, 'won');
    expect((await refund(won, { amount: 5 })).status).toBe(201);
    // Lost after a partial refund: 100 paid, 30 refunded, 20 charged back: 50 is left to refund, and only that.
    const lost = await pay(org, 100, 'USD');
    expect((await refund(lost, { amount: 30 })).status).toBe(201);
    const b = disputeId();
    expect((await create(org, b, { transactionId: lost.id, currency: 'USD', amount: 20 })).status).toBe(201);
    expect((await refund(lost, { amount: 10 })).json.errorCode).toBe('refund.transaction_disputed');
    await advanceDispute(org.organizationId, b, 'lost');
    const over = await refund(lost, { amount: 50.01 });
    expect(over.status, over.text).toBe(422);
    expect(over.json.errorCode).toBe('refund.amount_exceeds_refundable');
    expect((await refund(lost, {})).json.data).toMatchObject({ amount: 50 });
    expect((await refund(lost, { amount: 0.01 })).json.errorCode).toBe('refund.amount_exceeds_refundable');
    await ledgerHolds(org, 'USD');
  });

  it('answers a repeat with the same body with the same dispute, refuses the id with another body with 409, once under a race', async () => {
    const org = await organizationAccount('Dispute repeats');
    const t = await pay(org, 40, 'USD');
    const id = disputeId();
    const body = { transactionId: t.id, currency: 'USD', amount: 40, reasonCode: 'fraudulent' };
    const [a, b, c] = await Promise.all([create(org, id, body), create(org, id, body), create(org, id, body)]);
    expect([a!.status, b!.status, c!.status]).toEqual([201, 201, 201]);
    expect(b!.json.data).toEqual(a!.json.data);
    expect(c!.json.data).toEqual(a!.json.data);
    const changed = await create(org, id, { ...body, amount: 39 });
    expect(changed.status).toBe(409);
    expect(changed.json.errorCode).toBe('dispute.already_exists');
    const { journals, balance } = await ledgerHolds(org, 'USD');
    expect(journals.map((j) => j.type)).toEqual(['payment', 'dispute_opened']);
    expect(balance.reserved).toBe(4_000);
  });

  it('holds one dispute per transaction: of two racing ids one is recorded, the other is 409', async () => {
    const org = await organizationAccount('Dispute race');
    const t = await pay(org, 15, 'EUR');
    const results = await Promise.all([disputeId(), disputeId()].map((id) => create(org, id, { transactionId: t.id, currency: 'EUR', amount: 15 })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.status === 409)!.json.errorCode).toBe('dispute.transaction_already_disputed');
    expect((await list(org)).json.totalCount).toBe(1);
    const { journals, balance } = await ledgerHolds(org, 'EUR');
    expect(journals.filter((j) => j.type === 'dispute_opened')).toHaveLength(1);
    expect(balance.reserved).toBe(1_500);
  });

  it('lists disputes with paging, sort and a status filter; an unknown id is 404', async () => {
    const org = await organizationAccount('Dispute list');
    const ids: string[] = [];
    for (const status of ['response-needed', 'under-review', 'unknown']) {
      const t = await pay(org, 10, 'USD');
      const id = disputeId();
      expect((await create(org, id, { transactionId: t.id, currency: 'USD', amount: 10, status })).status).toBe(201);
      ids.push(id);
    }
    const page = await list(org, '?limit=2&offset=0&sortDirection=asc');
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({ type: 'list', totalCount: 3, paginationMeta: { limit: 2, offset: 0 } });
    expect(page.json.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 2));
    const rest = await list(org, '?limit=2&offset=2&sortDirection=asc');
    expect(rest.json.data.map((d: { id: string }) => d.id)).toEqual([ids[2]]);
    const reviewing = await list(org, '?statuses=under-review,unknown&sortDirection=asc');
    expect(reviewing.json.totalCount).toBe(2);
    expect(reviewing.json.data.map((d: { id: string }) => d.id)).toEqual(ids.slice(1));
    expect((await list(org, '?statuses=pending')).status).toBe(400);
    const missing = await get(org, 'no-such-dispute');
    expect(missing.status).toBe(404);
    expect(missing.json.errorCode).toBe('dispute.not_found');
  });
});

describe('disputes: status changes, events and the ledger', () => {
  it('writes dispute.created, dispute.updated and dispute.lost, and a lost dispute takes the reserve out', async () => {
    const org = await organizationAccount('Losing shop');
    const events = await merchantEvents(org.organizationId, ['dispute.created', 'dispute.updated', 'dispute.lost', 'dispute.won']);
    const t = await pay(org, 50, 'USD');
    const id = disputeId();
    expect((await create(org, id, { transactionId: t.id, currency: 'USD', amount: 25, reasonCode: 'product_not_received' })).status).toBe(201);
    const reviewing = await advanceDispute(org.organizationId, id, 'under-review');
    expect(reviewing).toMatchObject({ status: 'under-review', resolvedAt: null });
    const lost = await advanceDispute(org.organizationId, id, 'lost');
    expect(lost.status).toBe('lost');
    expect(lost.resolvedAt).not.toBeNull();

    const bodies = await eventsOf(events, 3, 'three dispute events');
    const common = { disputeId: id, externalDisputeId: null, amount: 25, currency: 'usd', merchantId: org.organizationId };
    expect(bodies).toEqual(
      expect.arrayContaining([{ ...common, reason: 'product_not_received' }, { ...common, reason: 'product_not_received', status: 'under-review' }, common]),
    );
    expect(events.received.map((r) => r.headers['x-webhook-signature'])).toHaveLength(3);

    const { journals, balance } = await ledgerHolds(org, 'USD');
    expect(journals.map((j) => j.type)).toEqual(['payment', 'dispute_opened', 'dispute_lost']);
    expect(balance).toMatchObject({ reserved: 0, owed: 2_500, pending: 4_750 });
    expect((await get(org, id)).json.data.status).toBe('lost');
  });

  it('a won dispute releases the reserve back to available; the sandbox opens it on a released payment', async () => {
    const org = await organizationAccount('Winning shop');
    const events = await merchantEvents(org.organizationId, ['dispute.created', 'dispute.won']);
    const t = await pay(org, 100, 'EUR');
    await releaseDueFunds(new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000), { merchantId: org.organizationId });
    expect(await getBalance(org.organizationId, 'EUR')).toMatchObject({ available: 9_500 });

    const opened = await openSandboxDispute({ transaction: t.externalTransactionId!, amount: 60, reason: 'fraudulent' });
    expect(opened).toMatchObject({ transactionId: t.id, status: 'response-needed', amount: 60, currency: 'EUR', reasonCode: 'fraudulent' });
    expect(opened.id).toMatch(/^dp_[A-Za-z0-9]{24}$/);
    expect(opened.externalDisputeId).toMatch(/^du_/);
    expect((await ledgerHolds(org, 'EUR')).balance).toMatchObject({ available: 3_500, reserved: 6_000, owed: 0 });

    const won = await advanceSandboxDispute(opened.id, 'won');
    expect(won.status).toBe('won');
    const bodies = await eventsOf(events, 2, 'created and won');
    const common = { disputeId: opened.id, externalDisputeId: opened.externalDisputeId, amount: 60, currency: 'eur', merchantId: org.organizationId };
    expect(bodies).toEqual(expect.arrayContaining([{ ...common, reason: 'fraudulent' }, common]));
    const { journals, balance } = await ledgerHolds(org, 'EUR');
    expect(journals.map((j) => j.type).sort()).toEqual(['dispute_opened', 'dispute_won', 'payment', 'release']);
    expect(balance).toMatchObject({ available: 9_500, reserved: 0, owed: 0 });
  });

  it('never takes available below zero when disputes open at once: the one that finds too little owes the rest', async () => {
    const org = await organizationAccount('Racing disputes shop');
    const [t1, t2] = [await pay(org, 100, 'EUR'), await pay(org, 100, 'EUR')];
    await releaseDueFunds(new Date(Date.now() + (HOLD_DAYS * 24 + 1) * 3_600_000), { merchantId: org.organizationId });
    expect(await getBalance(org.organizationId, 'EUR')).toMatchObject({ available: 19_000 });
    const results = await Promise.all([t1!, t2!].map((t) => create(org, disputeId(), { transactionId: t.id, currency: 'EUR', amount: 100 })));
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    const { balance } = await ledgerHolds(org, 'EUR');
    expect(balance).toMatchObject({ available: 0, reserved: 20_000, owed: 1_000 });
  });

  it('a won dispute repays what the merchant owes first', async () => {
    const org = await organizationAccount('Owing shop');
    const t = await pay(org, 30, 'USD');
    const id = disputeId();
    expect((await create(org, id, { transactionId: t.id, currency: 'USD', amount: 30 })).status).toBe(201);
    expect(await getBalance(org.organizationId, 'USD')).toMatchObject({ owed: 3_000, reserved: 3_000, available: 0 });
    await advanceDispute(org.organizationId, id, 'won');
    const { balance } = await ledgerHolds(org, 'USD');
    expect(balance).toMatchObject({ owed: 0, reserved: 0, available: 0, pending: 2_850 });
  });

  it('a forfeited dispute counts as lost (told as dispute.updated, status forfeited); decided disputes never move again, and of racing decisions one wins', async () => {
    const org = await organizationAccount('Final shop');
    const events = await merchantEvents(org.organizationId, ['dispute.lost', 'dispute.won', 'dispute.updated']);
    const t1 = await pay(org, 10, 'USD');
    const forfeited = disputeId();
    expect((await create(org, forfeited, { transactionId: t1.id, currency: 'USD', amount: 10 })).status).toBe(201);
    expect((await advanceDispute(org.organizationId, forfeited, 'forfeited')).status).toBe('forfeited');
    await expect(advanceDispute(org.organizationId, forfeited, 'won')).rejects.toMatchObject({ status: 409, code: 'dispute.invalid_transition' });
    await expect(advanceDispute(org.organizationId, forfeited, 'unknown')).rejects.toMatchObject({ code: 'dispute.invalid_transition' });

    const t2 = await pay(org, 10, 'USD');
    const raced = disputeId();
    expect((await create(org, raced, { transactionId: t2.id, currency: 'USD', amount: 10 })).status).toBe(201);
    const outcomes = await Promise.allSettled([advanceDispute(org.organizationId, raced, 'won'), advanceDispute(org.organizationId, raced, 'lost')]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { code: 'dispute.invalid_transition' } });

    const bodies = await eventsOf(events, 2, 'forfeited and raced decisions');
    expect(bodies.filter((b) => b.disputeId === forfeited)).toEqual([expect.objectContaining({ status: 'forfeited' })]);
    expect(bodies.filter((b) => b.disputeId === raced)).toHaveLength(1);
    const { journals } = await ledgerHolds(org, 'USD');
    expect(journals.filter((j) => j.type === 'dispute_lost' || j.type === 'dispute_won')).toHaveLength(2);
  });
});

describe('dispute alerts', () => {
  it('writes dispute.alert_created linked to the transaction, and with transactionId null when unlinked', async () => {
    const org = await organizationAccount('Alerted shop');
    const events = await merchantEvents(org.organizationId, ['dispute.alert_created']);
    const t = await pay(org, 12.5, 'USD');
    const linked = await createDisputeAlert({ transaction: t.externalTransactionId!, alertType: 'RDR' });
    expect(linked).toMatchObject({ transactionId: t.id, externalTransactionId: t.externalTransactionId, amount: 12.5, currency: 'USD', alertType: 'RDR' });
    const unlinked = await createDisputeAlert({
      transaction: 'pay_unknownToThePlatform0',
      alertType: 'Fraud',
      organizationId: org.organizationId,
      amount: 9.99,
      currency: 'usd',
    });
    expect(unlinked.transactionId).toBeNull();
    await expect(createDisputeAlert({ transaction: 'pay_unknownToThePlatform1', alertType: 'Dispute' })).rejects.toMatchObject({
      status: 400,
      code: 'dispute_alert.unlinked_needs_details',
    });

    const bodies = await eventsOf(events, 2, 'two alerts');
    expect(bodies).toEqual(
      expect.arrayContaining([
        {
          alertId: linked.alertId,
          externalAlertId: linked.externalAlertId,
          transactionId: t.id,
          externalTransactionId: t.externalTransactionId,
          alertType: 'RDR',
          reason: 'general',
          amount: 12.5,
          currency: 'usd',
          merchantId: org.organizationId,
        },
        {
          alertId: unlinked.alertId,
          externalAlertId: unlinked.externalAlertId,
          transactionId: null,
          externalTransactionId: 'pay_unknownToThePlatform0',
          alertType: 'Fraud',
          reason: 'fraudulent',
          amount: 9.99,
          currency: 'usd',
          merchantId: org.organizationId,
        },
      ]),
    );
    expect((await listDisputeAlerts(org.organizationId)).map((a) => a.id)).toEqual([linked.alertId, unlinked.alertId]);
  });
});

describe('sandbox-dispute operator command', () => {
  const admin = (...args: string[]) => adminCli({ MOR_STACKS_DIR: undefined }, ...args);

  it('opens a dispute on a payment and advances it to lost; refuses live and a bad status', async () => {
    const org = await organizationAccount('CLI dispute shop');
    const t = await pay(org, 20, 'USD');
    const opened = JSON.parse((await admin('sandbox-dispute', 'open', t.id, '--amount', '5', '--json')).stdout);
    expect(opened).toMatchObject({ transactionId: t.id, organizationId: org.organizationId, status: 'response-needed', amount: 5 });
    const lost = JSON.parse((await admin('sandbox-dispute', 'advance', opened.id, '--to', 'lost', '--json')).stdout);
    expect(lost).toMatchObject({ id: opened.id, status: 'lost' });
    await Promise.all([
      expect(admin('sandbox-dispute', 'advance', opened.id, '--to', 'sideways')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--to') }),
      expect(admin('sandbox-dispute', 'open', t.id, '--stage', 'live')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('--stage') }),
    ]);
    expect((await ledgerHolds(org, 'USD')).journals.map((j) => j.type)).toEqual(['payment', 'dispute_opened', 'dispute_lost']);
  }, 60_000);
});
