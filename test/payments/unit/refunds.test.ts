import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balanceDelta, isBalanced, refundJournal, taxInRefunded } from '../../../shared/money/ledger.rules.ts';
import { processorRefundKey, refundableMinor, statusAfterRefunds } from '../../../shared/payments/refunds.rules.ts';
import { canTransition } from '../../../shared/payments/transactions.rules.ts';

describe('refund rules', () => {
  it('leaves what is not refunded or being refunded, never below zero', () => {
    expect(refundableMinor({ amountMinor: 10_000, refundedMinor: 0 })).toBe(10_000);
    expect(refundableMinor({ amountMinor: 10_000, refundedMinor: 9_000 })).toBe(1_000);
    expect(refundableMinor({ amountMinor: 10_000, refundedMinor: 10_000 })).toBe(0);
    expect(refundableMinor({ amountMinor: 10_000, refundedMinor: 12_000 })).toBe(0);
  });

  it('makes a transaction partially-refunded, then refunded when its refunds cover it; other statuses stay', () => {
    expect(statusAfterRefunds('completed', 10_000, 3_000)).toBe('partially-refunded');
    expect(statusAfterRefunds('partially-refunded', 10_000, 10_000)).toBe('refunded');
    expect(statusAfterRefunds('completed', 10_000, 10_000)).toBe('refunded');
    expect(statusAfterRefunds('disputed', 10_000, 3_000)).toBeNull();
    expect(canTransition('completed', 'partially-refunded')).toBe(true);
    expect(canTransition('partially-refunded', 'refunded')).toBe(true);
    expect(canTransition('refunded', 'partially-refunded')).toBe(false);
    expect(canTransition('declined', 'refunded')).toBe(false);
  });

  it('names one processor refund per refund', () => {
    expect(processorRefundKey('r1')).toBe(processorRefundKey('r1'));
    expect(processorRefundKey('r1')).not.toBe(processorRefundKey('r2'));
  });
});

describe('the refund journal', () => {
  const base = { merchantId: 'm', refundId: 'r', currency: 'EUR', grossMinor: 11_900, taxMinor: 1_900, refundedBeforeMinor: 0, at: '2026-01-01T00:00:00.000Z' };

  it('gives the tax in the refund back pro rata and debits the merchant the rest, available first, the shortfall owed', () => {
    const j = refundJournal({ ...base, refundMinor: 5_950, available: 2_000 });
    expect(j.id).toBe('refund:r');
    expect(isBalanced(j.entries)).toBe(true);
    expect(j.entries).toEqual(
      expect.arrayContaining([
        { account: 'platform:cash', amount: -5_950 },
        { account: 'platform:tax', amount: 950 },
        { account: 'merchant:m:available', amount: 2_000 },
        { account: 'merchant:m:owed', amount: 3_000 },
      ]),
    );
    expect(balanceDelta('m', j.entries)).toMatchObject({ available: -2_000, owed: 3_000, pending: 0 });
  });

  it('keeps the platform fee: a full refund debits the merchant the whole amount less tax', () => {
    const j = refundJournal({ ...base, refundMinor: 11_900, available: 50_000 });
    expect(j.entries.find((e) => e.account === 'platform:fees')).toBeUndefined();
    expect(balanceDelta('m', j.entries)).toMatchObject({ available: -10_000, owed: 0 });
  });

  it('gives back, over the refunds of a payment however it is split, the share of the tax their sum holds: all of it in full, never more', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.array(fc.integer({ min: 1, max: 1_000 }), { minLength: 1, maxLength: 40 }),
        (grossMinor, taxPercent, weights) => {
          const taxMinor = Math.floor((grossMinor * taxPercent) / (100 + taxPercent));
          let refunded = 0;
          let taxBack = 0;
          for (const [n, w] of weights.entries()) {
            const left = grossMinor - refunded;
            if (left === 0) break;
            // The last refund takes what is left; the others a part of it.
            const refundMinor = n === weights.length - 1 ? left : Math.max(1, Math.min(left, Math.floor((left * w) / 2_000)));
            const j = refundJournal({ ...base, grossMinor, taxMinor, refundedBeforeMinor: refunded, refundMinor, available: 0 });
            const back = j.entries.find((e) => e.account === 'platform:tax')?.amount ?? 0;
            expect(back).toBeGreaterThanOrEqual(0);
            expect(back).toBeLessThanOrEqual(refundMinor);
            expect(isBalanced(j.entries)).toBe(true);
            refunded += refundMinor;
            taxBack += back;
            expect(taxBack).toBe(taxInRefunded(grossMinor, taxMinor, refunded));
          }
          expect(refunded).toBe(grossMinor);
          expect(taxBack).toBe(taxMinor);
        },
      ),
    );
  });

  it('rounds the tax given back half to even and stays balanced for every amount', () => {
    for (let refundMinor = 1; refundMinor <= 11_900; refundMinor += 37) {
      const j = refundJournal({ ...base, refundMinor, available: 1_000 });
      expect(isBalanced(j.entries)).toBe(true);
    }
  });
});
