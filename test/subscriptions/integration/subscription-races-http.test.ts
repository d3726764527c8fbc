/**
 * The races that once charged customers twice, refunded without cancelling and stuck the test clock, sent as a
 * newcomer would: parallel HTTP requests through the local gateway (organization API, sandbox test clock). Each must
 * leave one winner, the others 409 (or the winner's answer again), no extra charge, a refund only with its
 * cancellation, the clock ready at once, and no 5xx. The charges are read back through the API and checked against
 * the subscription's own history (each kept charge one money step of a step that won). Two changes of one open
 * cancellation at once: one lands, and a revoked cancellation refunds nothing.
 */
import { describe, expect, it } from 'vitest';
import { listMoneySteps } from '../../../shared/subscriptions/subscriptions.repository.ts';
import { cardToken, organizationAccount, orgCall, orgPath, orgPlan, uniqueEmail } from '../../support/fixtures.ts';

type Org = Awaited<ReturnType<typeof organizationAccount>>;
type Res = Awaited<ReturnType<typeof orgCall>>;

const path = (org: Org, rest: string) => `${orgPath(org.organizationId)}${rest}`;
const call = (org: Org, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', rest: string, body?: unknown) =>
  orgCall(method, path(org, rest), { fullKey: org.fullKey, ...(body === undefined ? {} : { body }) });
const PAID = new Set(['completed', 'partially-refunded', 'refunded']);

interface Charge {
  id: string;
  status: string;
  amount: number;
  idempotencyKey: string;
}

const chargesOf = async (org: Org, subscriptionId: string): Promise<Charge[]> =>
  (await call(org, 'GET', `/transactions?subscriptionId=${subscriptionId}&limit=100&sortDirection=asc`)).json.data;
const refundsOf = async (org: Org, transactionId: string): Promise<Array<{ id: string; status: string; amount: number; idempotencyKey: string | null }>> =>
  (await call(org, 'GET', `/transactions/${transactionId}/refunds`)).json.data;
const statuses = (answers: Res[]) => answers.map((r) => (r.status < 300 ? r.status : `${r.status} ${r.json?.errorCode}`));

/** An organization with `count` monthly 10 USD subscriptions of one customer, started on Jan 31 next year (its clock). */
async function subscribed(name: string, count: number) {
  const org = await organizationAccount(name);
  const plan = await orgPlan(org, { pricing: { price: 10, formula: 'fixed-fee' } }, { productType: 'recurring' });
  const upgrade = await orgPlan(org, { pricing: { price: 25, formula: 'fixed-fee' } }, { productType: 'recurring' });
  const customer = await call(org, 'POST', '/customers', { email: uniqueEmail('racer'), primaryAddress: { customerAddress: { country: 'US', region: 'OR' } } });
  const customerId = customer.json.data.id as string;
  const attached = await call(org, 'POST', `/customers/${customerId}/payment-instruments`, { token: await cardToken(org) });
  const year = new Date().getUTCFullYear() + 1;
  expect((await call(org, 'POST', '/test-clock/advance', { to: `${year}-01-31T10:00:00.000Z` })).status).toBe(200);
  const ids: string[] = [];
  for (let n = 0; n < count; n++) {
    const created = await call(org, 'POST', '/subscriptions', { customerId, paymentInstrumentId: attached.json.data.id, items: [{ plan: plan.id }] });
    expect(created.status, created.text).toBe(201);
    ids.push(created.json.data.id);
  }
  return { org, year, ids, upgradePlanId: upgrade.id as string };
}

/**
 * What must hold of a subscription after any race: every kept charge is one money step of its history (no two steps
 * on one version), each renewal period paid once, and each refund a completed cancellation's.
 */
async function expectExplained(org: Org, subscriptionId: string) {
  const [charges, steps] = await Promise.all([chargesOf(org, subscriptionId), listMoneySteps(subscriptionId)]);
  const kept = charges.filter((c) => PAID.has(c.status));
  for (const c of kept)
    expect(
      steps.filter((s) => s.kind === 'charge' && s.id === c.id),
      `money step of ${c.idempotencyKey}`,
    ).toHaveLength(1);
  // One step per version (a cancellation's refunds, one per payment, are one step's).
  const versions = steps.map((s) => s.decidedOnVersion);
  const moves = new Set(steps.map((s) => `${s.decidedOnVersion} ${s.kind === 'charge' ? s.id : s.key.split(':').slice(0, 2).join(':')}`));
  expect(new Set(versions).size, `one step per version: ${[...moves]}`).toBe(moves.size);
  const keys = kept.map((c) => c.idempotencyKey.replace(/:retry-\d+$/, ''));
  expect(new Set(keys).size, `one paid charge per thing paid: ${keys}`).toBe(keys.length);
  const cancellations: Array<{ id: string; status: string; subscriptionId: string; lineItems: unknown[]; lineItemsSubtotal: { amount: number } | null }> = (
    await call(org, 'GET', '/subscription-cancellations?limit=100')
  ).json.data.filter((c: { subscriptionId: string }) => c.subscriptionId === subscriptionId);
  for (const c of kept) {
    for (const r of await refundsOf(org, c.id)) {
      const owner = cancellations.find((x) => r.idempotencyKey === `cancellation:${x.id}:${c.id}`);
      expect(owner?.status, `refund ${r.id} owed by a completed cancellation`).toBe('completed');
    }
  }
  return { kept, cancellations };
}

describe('subscription races over HTTP', () => {
  // Sixteen subscriptions' races, each then checked over HTTP one after another: 7 s alone, over 20 s beside a whole
  // run on 2 cores.
  it('two changes of one open cancellation at once (revoke and confirm, confirm twice, confirm and an edit): one lands, the other is refused, and a revoked cancellation refunds nothing', async () => {
    const { org, year, ids } = await subscribed('Cancellation patch race shop', 16);
    await call(org, 'POST', '/test-clock/advance', { to: `${year}-02-14T10:00:00.000Z` });
    const drafts: string[] = [];
    for (const id of ids) {
      const draft = await call(org, 'POST', '/subscription-cancellations', { subscriptionId: id, status: 'draft', churnTimePolicy: 'now', prorated: true });
      expect(draft.status, draft.text).toBe(201);
      drafts.push(draft.json.data.id);
    }
    const pairs = [
      [{ status: 'revoked' }, { status: 'confirmed' }],
      [{ status: 'confirmed' }, { status: 'revoked' }],
      [{ status: 'confirmed' }, { status: 'confirmed' }],
      [{ status: 'confirmed' }, { description: 'Edited meanwhile' }],
    ] as const;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // The second request a few milliseconds after the first: it reads the cancellation before the first lands, and
    // its subscription after.
    const answers = await Promise.all(
      ids.map(async (_, n) => {
        const [first, second] = pairs[n % pairs.length]!;
        const patch = (body: object) => call(org, 'PATCH', `/subscription-cancellations/${drafts[n]}`, body);
        return Promise.all([patch(first), sleep(n % 8).then(() => patch(second))]);
      }),
    );
    for (const [n, id] of ids.entries()) {
      const [first, second] = pairs[n % pairs.length]!;
      const pair = answers[n]!;
      const what = `subscription ${n} (${JSON.stringify(first)}, ${JSON.stringify(second)}): ${statuses(pair)}`;
      for (const r of pair.filter((x) => x.status >= 300))
        expect(['409 subscription.conflict', '422 subscription_cancellation.closed'], what).toContain(`${r.status} ${r.json.errorCode}`);
      const landed = pair.map((r, i) => (r.status === 200 ? [first, second][i]! : null)).filter((x) => x !== null);
      const statusLanded = landed.filter((x) => 'status' in x);
      // At most one change of the cancellation's status lands; an edit may land before it, never after it.
      expect(statusLanded.length, what).toBeLessThanOrEqual(1);
      const { kept, cancellations } = await expectExplained(org, id);
      const refunded = (await Promise.all(kept.map((c) => refundsOf(org, c.id)))).flat();
      const record = cancellations.find((c) => c.id === drafts[n])!;
      const subscription = (await call(org, 'GET', `/subscriptions/${id}`)).json.data;
      if (statusLanded[0]?.status === 'confirmed') {
        expect([record.status, subscription.status, refunded.length > 0, record.lineItems.length > 0], what).toEqual(['completed', 'canceled', true, true]);
      } else {
        // Revoked, or still a draft (an edit landed, the confirmation lost): the subscription carries on, nothing refunded.
        expect([record.status, subscription.status, refunded.length], what).toEqual([statusLanded[0] ? 'revoked' : 'draft', 'active', 0]);
      }
    }
  }, 60_000);

  it('six parallel deletions of one pause resume it once: one charge, the others 409 or the same answer', async () => {
    const { org, year, ids } = await subscribed('Resume race shop', 1);
    const id = ids[0]!;
    // Paused halfway through the period (half of it kept as credit), resumed a week later: the new period costs more.
    await call(org, 'POST', '/test-clock/advance', { to: `${year}-02-14T10:00:00.000Z` });
    const pause = await call(org, 'POST', '/subscription-pauses', { subscriptionId: id });
    expect(pause.status, pause.text).toBe(201);
    await call(org, 'POST', '/test-clock/advance', { to: `${year}-02-21T10:00:00.000Z` });
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(org, 'DELETE', `/subscription-pauses/${pause.json.data.id}`)));
    for (const r of answers) expect([200, 409, 422], r.text).toContain(r.status);
    expect(answers.filter((r) => r.status === 200).length, JSON.stringify(statuses(answers))).toBeGreaterThanOrEqual(1);
    for (const r of answers.filter((x) => x.status === 409)) expect(r.json.errorCode).toBe('subscription.conflict');
    for (const r of answers.filter((x) => x.status === 422)) expect(r.json.errorCode).toBe('subscription_pause.completed');
    const { kept } = await expectExplained(org, id);
    expect(kept.filter((c) => c.idempotencyKey.startsWith('resume:')).map((c) => c.idempotencyKey)).toEqual([`resume:${pause.json.data.id}`]);
    expect((await call(org, 'GET', `/subscriptions/${id}`)).json.data.status).toBe('active');
  });

  it('an advance past the period end with prorated cancellations at once: a refund exactly where a cancellation completed, the clock ready', async () => {
    const { org, year, ids } = await subscribed('Advance and cancel race shop', 8);
    await call(org, 'POST', '/test-clock/advance', { to: `${year}-02-20T10:00:00.000Z` });
    const [advanced, ...cancels] = await Promise.all([
      call(org, 'POST', '/test-clock/advance', { to: `${year}-03-05T10:00:00.000Z` }),
      ...ids.map((id) => call(org, 'POST', '/subscription-cancellations', { subscriptionId: id, churnTimePolicy: 'now', prorated: true })),
    ]);
    expect([200, 409], advanced!.text).toContain(advanced!.status);
    for (const r of cancels) {
      expect([201, 409], r.text).toContain(r.status);
      if (r.status === 409) expect(['subscription.conflict', 'test_clock.advancing']).toContain(r.json.errorCode);
    }
    expect((await call(org, 'GET', '/test-clock')).json.data.status).toBe('ready');
    for (const [n, id] of ids.entries()) {
      const { kept, cancellations } = await expectExplained(org, id);
      const refunded = (await Promise.all(kept.map((c) => refundsOf(org, c.id)))).flat();
      const completed = cancellations.filter((c) => c.status === 'completed');
      expect(completed.length, `subscription ${n}: one cancellation at most`).toBeLessThanOrEqual(1);
      // Refund ⇔ cancellation: a canceled subscription's unused time came back, an uncanceled one kept its payment.
      expect(refunded.length > 0, `subscription ${n}: refunded ⇔ canceled (${statuses(cancels)[n]})`).toBe(
        completed.length === 1 && completed[0]!.lineItems.length > 0,
      );
      expect((await call(org, 'GET', `/subscriptions/${id}`)).json.data.status).toBe(completed.length ? 'canceled' : 'active');
    }
    // The clock moves again at once, and what was canceled never renews.
    expect((await call(org, 'POST', '/test-clock/advance', { to: `${year}-05-01T10:00:00.000Z` })).status).toBe(200);
    for (const id of ids) await expectExplained(org, id);
  });

  const changes: Array<[string, (upgradePlanId: string, id: string) => { method: 'POST' | 'PUT'; rest: string; body: unknown }]> = [
    [
      'prorated items changes',
      (upgradePlanId, id) => ({ method: 'PUT', rest: `/subscriptions/${id}/items`, body: { items: [{ plan: upgradePlanId }], proRataCredit: true } }),
    ],
    ['new pauses', (_, id) => ({ method: 'POST', rest: '/subscription-pauses', body: { subscriptionId: id } })],
  ];
  for (const [what, request] of changes) {
    it(`an advance past the period end with ${what} at once: every charge one step's, the clock ready and advancing again`, async () => {
      const { org, year, ids, upgradePlanId } = await subscribed(`Advance and ${what} race shop`, 8);
      await call(org, 'POST', '/test-clock/advance', { to: `${year}-02-20T10:00:00.000Z` });
      const [advanced, ...changes] = await Promise.all([
        call(org, 'POST', '/test-clock/advance', { to: `${year}-03-05T10:00:00.000Z` }),
        ...ids.map((id) => {
          const { method, rest, body } = request(upgradePlanId, id);
          return call(org, method, rest, body);
        }),
      ]);
      expect([200, 409], advanced!.text).toContain(advanced!.status);
      for (const r of changes) {
        expect(r.status, r.text).toBeLessThan(500);
        if (r.status === 409) expect(['subscription.conflict', 'test_clock.advancing']).toContain(r.json.errorCode);
      }
      expect((await call(org, 'GET', '/test-clock')).json.data.status).toBe('ready');
      for (const id of ids) {
        const { kept } = await expectExplained(org, id);
        const s = (await call(org, 'GET', `/subscriptions/${id}`)).json.data;
        // A renewal charge of day 28 exactly where the subscription's period says it renewed (a pause keeps its period).
        const renewed = kept.filter((c) => c.idempotencyKey === `renewal:${id}:2`);
        expect(renewed.length === 1, `renewal of ${id} ⇔ its second period (${s.status}, from ${s.currentPeriodStart})`).toBe(
          s.currentPeriodStart >= `${year}-02-28`,
        );
      }
      expect((await call(org, 'POST', '/test-clock/advance', { to: `${year}-04-10T10:00:00.000Z` })).status).toBe(200);
      for (const id of ids) await expectExplained(org, id);
    });
  }

  it('six parallel reactivations of one canceled subscription: one 201, no 5xx, one charge', async () => {
    const { org, ids } = await subscribed('Reactivation race shop', 1);
    const id = ids[0]!;
    expect((await call(org, 'POST', '/subscription-cancellations', { subscriptionId: id, churnTimePolicy: 'now' })).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(org, 'POST', '/subscription-reactivations', { subscriptionId: id })));
    expect(
      statuses(answers).filter((s) => s === 201),
      JSON.stringify(statuses(answers)),
    ).toHaveLength(1);
    // The losers: 409, or — arriving once the winner brought it back — 422 (it runs: nothing to reactivate).
    for (const r of answers.filter((x) => x.status !== 201)) {
      expect(`${r.status} ${r.json.errorCode}`, r.text).toMatch(/^(409 subscription\.conflict|422 subscription\.not_reactivatable)$/);
    }
    const { kept } = await expectExplained(org, id);
    expect(kept.filter((c) => c.idempotencyKey.startsWith('reactivation:'))).toHaveLength(1);
  });

  it('six parallel prorated items changes: the losers 409, no 5xx, one charge', async () => {
    const { org, year, ids, upgradePlanId } = await subscribed('Items race shop', 1);
    const id = ids[0]!;
    await call(org, 'POST', '/test-clock/advance', { to: `${year}-02-10T10:00:00.000Z` });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call(org, 'PUT', `/subscriptions/${id}/items`, { items: [{ plan: upgradePlanId }], proRataCredit: true })),
    );
    // The losers: 409; one arriving once the winner changed the items changes them to what they are (no charge).
    expect(statuses(answers).filter((s) => s === 200).length, JSON.stringify(statuses(answers))).toBeGreaterThanOrEqual(1);
    for (const r of answers.filter((x) => x.status !== 200)) {
      expect(r.status, r.text).toBe(409);
      expect(r.json.errorCode).toBe('subscription.conflict');
    }
    const { kept } = await expectExplained(org, id);
    expect(kept.filter((c) => c.idempotencyKey.startsWith('items:'))).toHaveLength(1);
  });

  it("a prorated upgrade and a prorated cancellation at once: whichever lands first, the cancellation refunds the period's unused value from all its payments", async () => {
    const { org, year, ids, upgradePlanId } = await subscribed('Upgrade and cancel race shop', 6);
    // Feb 14, 14 of the 28 days left: an upgrade to 25 charges 12.50 − 5 = 7.50; the unused value is then 12.50, else 5.
    await call(org, 'POST', '/test-clock/advance', { to: `${year}-02-14T10:00:00.000Z` });
    const answers = await Promise.all(
      ids.flatMap((id) => [
        call(org, 'PUT', `/subscriptions/${id}/items`, { items: [{ plan: upgradePlanId }], retainRenewalTime: 'retain', proRataCredit: true }),
        call(org, 'POST', '/subscription-cancellations', { subscriptionId: id, churnTimePolicy: 'now', prorated: true }),
      ]),
    );
    for (const [n, id] of ids.entries()) {
      const [upgraded, cancelled] = [answers[2 * n]!, answers[2 * n + 1]!];
      expect([200, 409, 422], upgraded.text).toContain(upgraded.status);
      if (upgraded.status !== 200) expect(['subscription.conflict', 'subscription.ended']).toContain(upgraded.json.errorCode);
      expect([201, 409], cancelled.text).toContain(cancelled.status);
      if (cancelled.status === 409) expect(cancelled.json.errorCode).toBe('subscription.conflict');
      const { kept, cancellations } = await expectExplained(org, id);
      const upgrade = kept.find((c) => c.idempotencyKey.startsWith('items:'));
      const refunds = (await Promise.all(kept.map(async (c) => (await refundsOf(org, c.id)).map((r) => ({ ...r, of: c.idempotencyKey }))))).flat();
      const given = refunds.reduce((sum, r) => sum + r.amount, 0);
      const completed = cancellations.find((c) => c.status === 'completed');
      if (!completed) {
        expect(refunds, `subscription ${n}: no cancellation, no refund`).toEqual([]);
        continue;
      }
      // What it says it gave back is what it gave back: all of the upgrade, then the first payment's share.
      expect(given, `subscription ${n}`).toBeCloseTo(-(completed.lineItemsSubtotal?.amount ?? 0), 2);
      expect(given, `subscription ${n} (${upgrade ? 'upgraded first' : 'cancelled first'})`).toBeCloseTo(upgrade ? 12.5 : 5, 2);
      if (upgrade)
        expect(
          refunds.find((r) => r.of === upgrade.idempotencyKey),
          `subscription ${n}: the upgrade refunded`,
        ).toMatchObject({ amount: 7.5 });
    }
  });
});
