/**
 * The ledger's rules (shared/money/ledger.rules.ts), with examples and as properties over random sequences of money
 * movements: every journal balances, the balances a sequence leaves are the sum of its journals' entries, and a
 * merchant's available funds never go below zero when each movement is made the way the services make it
 * (payouts only within available, forced debits falling back to owed).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  balanceDelta,
  balancesOf,
  debitAvailable,
  disputeLostJournal,
  disputeOpenedJournal,
  disputeWonJournal,
  feeOf,
  isBalanced,
  paymentJournal,
  paymentNet,
  payoutFailedJournal,
  payoutPaidJournal,
  payoutRequestedJournal,
  refundJournal,
  releaseJournal,
  taxInDisputed,
  zeroBalances,
  type Journal,
  type MerchantBalances,
} from '../../../shared/money/ledger.rules.ts';
import { RELEASE_SHARDS, releaseListing, releaseShard, releasesOf } from '../../../shared/money/pending-funds.entity.ts';

const M = 'merchant-1';
const AT = '2026-01-01T00:00:00.000Z';

describe('ledger journals', () => {
  it('books a payment: the gross in cash, the tax owed, a 5 % fee (half-even), the rest pending', () => {
    const j = paymentJournal({ merchantId: M, transactionId: 't1', currency: 'USD', grossMinor: 11_900, taxMinor: 1_900, at: AT });
    expect(j.id).toBe('payment:t1');
    expect(j.entries).toEqual([
      { account: 'platform:cash', amount: 11_900 },
      { account: 'platform:tax', amount: -1_900 },
      { account: 'platform:fees', amount: -595 },
      { account: `merchant:${M}:pending`, amount: -9_405 },
    ]);
    expect(isBalanced(j.entries)).toBe(true);
    // 5 % of 1,010 minor units is 50.5: half-even gives 50; of 1,030 it is 51.5: 52.
    expect(feeOf(1_010)).toBe(50);
    expect(feeOf(1_030)).toBe(52);
    expect(paymentNet(11_900, 1_900)).toBe(9_405);
  });

  it('never takes a fee larger than what is left after tax', () => {
    expect(paymentNet(1, 0)).toBe(1); // a fee of 0.05 minor units rounds to 0
    expect(paymentNet(100, 99)).toBe(0);
  });

  it('refunds the tax pro rata (half-even) and debits the merchant the rest, from available first, the shortfall owed', () => {
    const j = refundJournal({
      merchantId: M,
      refundId: 'r1',
      currency: 'EUR',
      grossMinor: 11_900,
      taxMinor: 1_900,
      refundedBeforeMinor: 0,
      refundMinor: 5_950,
      available: 1_000,
      at: AT,
    });
    expect(j.entries).toEqual([
      { account: 'platform:cash', amount: -5_950 },
      { account: 'platform:tax', amount: 950 },
      { account: `merchant:${M}:available`, amount: 1_000 },
      { account: `merchant:${M}:owed`, amount: 4_000 },
    ]);
    expect(balanceDelta(M, j.entries)).toEqual({ ...zeroBalances(), available: -1_000, owed: 4_000 });
  });

  it('repays what is owed before anything becomes available on release and on a won dispute', () => {
    const r = releaseJournal({ merchantId: M, transactionId: 't1', currency: 'USD', netMinor: 500, owed: 300, at: AT });
    expect(balanceDelta(M, r.entries)).toEqual({ ...zeroBalances(), pending: -500, owed: -300, available: 200 });
    const w = disputeWonJournal({ merchantId: M, disputeId: 'd1', currency: 'USD', amountMinor: 100, taxMinor: 0, owed: 300, at: AT });
    expect(balanceDelta(M, w.entries)).toEqual({ ...zeroBalances(), reserved: -100, owed: -100 });
  });

  it('calls a journal balanced only when its whole-unit entries sum to zero', () => {
    expect(isBalanced(debitAvailable(M, 10, 5).concat([{ account: 'platform:cash', amount: -10 }]))).toBe(true);
    expect(
      isBalanced([
        { account: 'platform:cash', amount: 10 },
        { account: 'platform:fees', amount: -9 },
      ]),
    ).toBe(false);
    expect(
      isBalanced([
        { account: 'platform:cash', amount: 0.5 },
        { account: 'platform:fees', amount: -0.5 },
      ]),
    ).toBe(false);
  });
});

/** One movement of a random sequence, made the way the services make it against the balances as they stand. */
type Op =
  | { kind: 'pay'; gross: number; taxPercent: number }
  | { kind: 'release' }
  | { kind: 'refund'; of: number; part: number }
  | { kind: 'dispute'; of: number; outcome: 'won' | 'lost' | 'open' }
  | { kind: 'payout'; amount: number; outcome: 'paid' | 'failed' | 'in_transit' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), gross: fc.integer({ min: 1, max: 1_000_000 }), taxPercent: fc.integer({ min: 0, max: 27 }) }),
  fc.record({ kind: fc.constant('release' as const) }),
  fc.record({ kind: fc.constant('refund' as const), of: fc.nat(), part: fc.double({ min: 0.01, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('dispute' as const), of: fc.nat(), outcome: fc.constantFrom('won' as const, 'lost' as const, 'open' as const) }),
  fc.record({
    kind: fc.constant('payout' as const),
    amount: fc.integer({ min: 1, max: 2_000_000 }),
    outcome: fc.constantFrom('paid' as const, 'failed' as const, 'in_transit' as const),
  }),
);

/** A payment of a random sequence: `refunded` by refunds, `taken` by a lost dispute, `taxBack` the tax both gave back. */
interface Payment {
  id: string;
  gross: number;
  tax: number;
  refunded: number;
  dispute: 'none' | 'open' | 'won' | 'lost';
  taken: number;
  taxBack: number;
  net: number;
  released: boolean;
}

const taxGivenBack = (j: Journal): number => j.entries.find((e) => e.account === 'platform:tax')?.amount ?? 0;

/** Runs `ops` from zero; answers every journal made and the balances kept by adding each journal's delta. */
function run(ops: readonly Op[]): { journals: Journal[]; kept: MerchantBalances; refundedOver: boolean; payments: Payment[] } {
  const journals: Journal[] = [];
  const kept = zeroBalances();
  const payments: Payment[] = [];
  let refundedOver = false;
  let n = 0;
  const book = (j: Journal) => {
    journals.push(j);
    const d = balanceDelta(M, j.entries);
    kept.pending += d.pending;
    kept.available += d.available;
    kept.reserved += d.reserved;
    kept.inTransit += d.inTransit;
    kept.owed += d.owed;
    if (j.type === 'payout_paid') kept.paidOut += -j.entries.find((e) => e.account === 'platform:cash')!.amount;
  };
  for (const o of ops) {
    const id = `x${n++}`;
    if (o.kind === 'pay') {
      const tax = Math.floor((o.gross * o.taxPercent) / (100 + o.taxPercent));
      book(paymentJournal({ merchantId: M, transactionId: id, currency: 'USD', grossMinor: o.gross, taxMinor: tax, at: AT }));
      payments.push({ id, gross: o.gross, tax, refunded: 0, dispute: 'none', taken: 0, taxBack: 0, net: paymentNet(o.gross, tax), released: false });
    } else if (o.kind === 'release') {
      for (const p of payments.filter((x) => !x.released)) {
        book(releaseJournal({ merchantId: M, transactionId: p.id, currency: 'USD', netMinor: p.net, owed: kept.owed, at: AT }));
        p.released = true;
      }
    } else if (o.kind === 'refund' && payments.length) {
      const p = payments[o.of % payments.length]!;
      const left = p.gross - p.refunded - p.taken;
      const amount = Math.min(Math.max(1, Math.floor(left * o.part)), left);
      if (amount <= 0 || p.dispute === 'open') continue; // nothing left, or held for a dispute: the service refuses
      const j = refundJournal({
        merchantId: M,
        refundId: id,
        currency: 'USD',
        grossMinor: p.gross,
        taxMinor: p.tax,
        refundedBeforeMinor: p.refunded,
        refundMinor: amount,
        available: kept.available,
        at: AT,
      });
      book(j);
      p.taxBack += taxGivenBack(j);
      p.refunded += amount;
      if (p.refunded + p.taken > p.gross) refundedOver = true;
    } else if (o.kind === 'dispute' && payments.length) {
      // At most one dispute a payment, for what its refunds left; decided at once or left open (refunds then refused).
      const p = payments[o.of % payments.length]!;
      const amount = p.gross - p.refunded;
      if (p.dispute !== 'none' || amount <= 0) continue;
      p.dispute = o.outcome;
      const d = { merchantId: M, disputeId: id, currency: 'USD', amountMinor: amount, taxMinor: taxInDisputed(p.gross, p.tax, amount), at: AT };
      book(disputeOpenedJournal({ ...d, available: kept.available }));
      if (o.outcome === 'won') book(disputeWonJournal({ ...d, owed: kept.owed }));
      if (o.outcome === 'lost') {
        const j = disputeLostJournal(d);
        book(j);
        p.taxBack += taxGivenBack(j);
        p.taken = amount;
      }
    } else if (o.kind === 'payout') {
      if (o.amount > kept.available) continue; // the conditional balance update refuses it
      book(payoutRequestedJournal({ merchantId: M, payoutId: id, currency: 'USD', amountMinor: o.amount, at: AT }));
      if (o.outcome === 'paid') book(payoutPaidJournal({ merchantId: M, payoutId: id, currency: 'USD', amountMinor: o.amount, at: AT }));
      if (o.outcome === 'failed') book(payoutFailedJournal({ merchantId: M, payoutId: id, currency: 'USD', amountMinor: o.amount, owed: kept.owed, at: AT }));
    }
    expect(kept.available).toBeGreaterThanOrEqual(0);
    expect(kept.owed).toBeGreaterThanOrEqual(0);
  }
  return { journals, kept, refundedOver, payments };
}

describe('ledger properties', () => {
  it('over random sequences: every journal balances, balances are the sum of the entries, available and owed never go negative, no tax given back twice', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const { journals, kept, refundedOver, payments } = run(ops);
        for (const j of journals) expect(isBalanced(j.entries), j.id).toBe(true);
        expect(kept).toEqual(balancesOf(M, journals));
        expect(refundedOver).toBe(false);
        // Refunds and a lost dispute give back at most a payment's tax, all of it once the whole payment went back.
        for (const p of payments) {
          expect(p.taxBack).toBeLessThanOrEqual(p.tax);
          if (p.refunded + p.taken === p.gross) expect(p.taxBack, p.id).toBe(p.tax);
        }
        // One business event, one journal.
        expect(new Set(journals.map((j) => j.id)).size).toBe(journals.length);
        // Across all accounts, the entries of every journal together sum to zero as well.
        expect(journals.flatMap((j) => j.entries).reduce((s, e) => s + e.amount, 0)).toBe(0);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('release index keys', () => {
  it('spreads transaction ids evenly over every shard, the same id always to the same shard, sorted by due time', () => {
    const counts = new Array<number>(RELEASE_SHARDS).fill(0);
    for (let i = 0; i < 800; i++) counts[releaseShard(`0190a1b2-0000-7000-8000-${String(i).padStart(12, '0')}`)]!++;
    for (const n of counts) expect(n).toBeGreaterThan(60); // 100 each on average
    expect(releaseShard('tx-1')).toBe(releaseShard('tx-1'));
    expect(releaseListing('tx-1', AT)).toEqual({ gsi2pk: `RELEASES#${releaseShard('tx-1')}`, gsi2sk: `${AT}#tx-1` });
    expect(releasesOf(3)).toEqual({ gsi2pk: 'RELEASES#3' });
  });
});
