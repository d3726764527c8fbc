/**
 * What a prorated cancellation takes from the paid period's payments (`takeFrom`): in the order given (newest first),
 * each at most what is left of it (by its refunds and a lost dispute), all it owes when they hold enough, from at most
 * `MAX_REFUNDED_PAYMENTS` of them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../../shared/payments/index.ts';
import { MAX_REFUNDED_PAYMENTS, takeFrom } from '../../../shared/subscriptions/cancellations.service.ts';
import { paidUntil } from '../../../shared/subscriptions/changes.rules.ts';

const payment = (id: string, amountMinor: number, refundedMinor: number, takenMinor: number | null = null) => ({
  transaction: { id, amountMinor, refundedMinor } as Transaction,
  takenMinor,
});

describe('a prorated cancellation’s refunds', () => {
  it('takes the newest payment first, then the older ones, each at most what is left of it', () => {
    const upgrade = payment('upgrade', 1_500, 0);
    const first = payment('first', 1_000, 700);
    expect(takeFrom([upgrade, first], 1_000).map((r) => [r.transaction.id, r.amountMinor])).toEqual([['upgrade', 1_000]]);
    expect(takeFrom([upgrade, first], 2_000).map((r) => [r.transaction.id, r.amountMinor])).toEqual([
      ['upgrade', 1_500],
      ['first', 300],
    ]);
    expect(takeFrom([upgrade, first], 0)).toEqual([]);
  });

  it('never takes what a lost dispute took of a payment', () => {
    const charged = payment('charged-back', 1_500, 0, 1_000);
    const won = payment('won', 1_000, 200, 0);
    expect(takeFrom([charged, won], 2_000).map((r) => [r.transaction.id, r.amountMinor, r.takenMinor])).toEqual([
      ['charged-back', 500, 1_000],
      ['won', 800, 0],
    ]);
  });

  it('gives back what it owes, or all its payments hold, never more than either', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc
            .tuple(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 0, max: 100_000 }), fc.option(fc.integer({ min: 0, max: 100_000 })))
            .filter(([a, r, d]) => r + (d ?? 0) < a),
          { maxLength: 20 },
        ),
        fc.integer({ min: 0, max: 1_000_000 }),
        (paid, owed) => {
          const payments = paid.map(([a, r, d], n) => payment(`p${n}`, a, r, d));
          const leftOf = (p: (typeof payments)[number]) => p.transaction.amountMinor - (p.transaction.refundedMinor ?? 0) - (p.takenMinor ?? 0);
          const taken = takeFrom(payments, owed);
          const held = payments.slice(0, MAX_REFUNDED_PAYMENTS).reduce((n, p) => n + leftOf(p), 0);
          expect(taken.reduce((n, r) => n + r.amountMinor, 0)).toBe(Math.min(owed, held));
          expect(taken.length).toBeLessThanOrEqual(MAX_REFUNDED_PAYMENTS);
          taken.forEach((r, n) => {
            expect(r.transaction).toBe(payments[n]!.transaction);
            expect(r.amountMinor).toBeGreaterThan(0);
            expect(r.amountMinor).toBeLessThanOrEqual(leftOf(payments[n]!));
          });
        },
      ),
    );
  });
});

describe('when a cancellation at the next renewal ends a subscription (paidUntil)', () => {
  const now = '2026-03-10T00:00:00.000Z';
  const s = (status: string, periodEnd: string | null, trialEndAt: string | null = null) => ({ status, periodEnd, trialEndAt });
  it('waits for the end of the paid period or trial still to come, and ends at once one with none left', () => {
    expect(paidUntil(s('active', '2026-04-01T00:00:00.000Z'), now)).toBe('2026-04-01T00:00:00.000Z');
    expect(paidUntil(s('trial', null, '2026-03-20T00:00:00.000Z'), now)).toBe('2026-03-20T00:00:00.000Z');
    // Past due with its period's end still to come: the cancellation waits for it (as the engine's churnTime does).
    expect(paidUntil(s('past-due', '2026-04-01T00:00:00.000Z'), now)).toBe('2026-04-01T00:00:00.000Z');
    // Past due on a period that has ended unpaid, paused, pending: nothing paid is left to keep.
    expect(paidUntil(s('past-due', '2026-03-01T00:00:00.000Z'), now)).toBeNull();
    expect(paidUntil(s('paused', '2026-04-01T00:00:00.000Z'), now)).toBeNull();
    expect(paidUntil(s('pending', null), now)).toBeNull();
  });
});
