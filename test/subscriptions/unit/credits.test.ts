/**
 * A subscription's credit keeps the rate it was paid at: lots added and used oldest first (a credit of no known rate,
 * kept before rates were, first of all), and a charge that uses credit takes each part off at its own rate — unless
 * that would make the charge's tax negative or leave nothing to pay, when the charge's rate taxes every line.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CreditHeld, creditAdded, creditLines, creditParts, creditUsed } from '../../../shared/subscriptions/credits.rules.ts';
import type { ChargeSpec, Subscription } from '../../../shared/subscriptions/subscription.entity.ts';
import { taxedSpec } from '../../../shared/subscriptions/steps.service.ts';

const none: CreditHeld = { creditMinor: 0, creditLots: [] };

describe('credit lots', () => {
  it('adds a credit to the last lot at its rate, else as a new lot; one of no known rate to no lot', () => {
    const uk = creditAdded(none, 500, 20);
    expect(creditAdded(uk, 250, 20)).toEqual({ creditMinor: 750, creditLots: [{ amountMinor: 750, taxRate: 20 }] });
    expect(creditAdded(uk, 250, null)).toEqual({
      creditMinor: 750,
      creditLots: [
        { amountMinor: 500, taxRate: 20 },
        { amountMinor: 250, taxRate: null },
      ],
    });
    expect(creditAdded(uk, 250, undefined)).toEqual({ creditMinor: 750, creditLots: [{ amountMinor: 500, taxRate: 20 }] });
    expect(creditAdded(uk, 0, 19)).toEqual(uk);
  });

  it('uses credit oldest first, the part of no known rate before the lots', () => {
    const held = {
      creditMinor: 1000,
      creditLots: [
        { amountMinor: 300, taxRate: 20 },
        { amountMinor: 400, taxRate: 0 },
      ],
    };
    expect(creditParts(held)).toEqual([{ amountMinor: 300 }, { amountMinor: 300, taxRate: 20 }, { amountMinor: 400, taxRate: 0 }]);
    expect(creditUsed(held, 500)).toEqual({
      used: [{ amountMinor: 300 }, { amountMinor: 200, taxRate: 20 }],
      left: {
        creditMinor: 500,
        creditLots: [
          { amountMinor: 100, taxRate: 20 },
          { amountMinor: 400, taxRate: 0 },
        ],
      },
    });
    expect(creditUsed(held, 5000).left).toEqual(none);
    expect(creditLines(creditUsed(held, 500).used)).toEqual([
      { description: 'Credit applied', quantity: 1, unitPriceMinor: -300 },
      { description: 'Credit applied', quantity: 1, unitPriceMinor: -200, taxedAt: 20 },
    ]);
  });

  it('keeps every minor unit: what is used and what is left make what was held, the lots never more than it', () => {
    const step = fc.oneof(
      fc.record({ add: fc.integer({ min: 0, max: 10_000 }), rate: fc.constantFrom(0, 7.25, 19, 20, null, undefined) }),
      fc.record({ use: fc.integer({ min: 0, max: 10_000 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
        let held = none;
        for (const s of steps) {
          if ('add' in s) {
            held = creditAdded(held, s.add, s.rate);
            continue;
          }
          const { used, left } = creditUsed(held, s.use);
          const usedMinor = used.reduce((n, p) => n + p.amountMinor, 0);
          expect(usedMinor).toBe(Math.min(s.use, held.creditMinor));
          expect(usedMinor + left.creditMinor).toBe(held.creditMinor);
          held = left;
        }
        expect(held.creditLots.reduce((n, l) => n + l.amountMinor, 0)).toBeLessThanOrEqual(held.creditMinor);
        expect(held.creditLots.every((l) => l.amountMinor > 0)).toBe(true);
      }),
    );
  });
});

describe('a charge that uses credit', () => {
  const at = '2026-06-01T00:00:00.000Z';
  const buyerIn = (country: string, region: string | null = null) =>
    ({ currency: 'EUR', billingAddress: { country, state: region, postalCode: null } }) as Subscription;
  const spec = (lines: ChargeSpec['lines']): ChargeSpec => ({
    key: 'renewal:s:2',
    transactionId: 't',
    invoiceId: 'i',
    description: 'Plan',
    amountMinor: lines.reduce((n, l) => n + l.quantity * l.unitPriceMinor, 0),
    lines,
  });
  const plan = { description: 'Plan', quantity: 1, unitPriceMinor: 10_000 };

  it('takes a credit paid in Oregon off a German charge without the VAT none was paid on', () => {
    const taxed = taxedSpec(buyerIn('DE'), spec([plan, ...creditLines([{ amountMinor: 3000, taxRate: 0 }])]), at);
    // 100.00 at 19 % less 30.00 untaxed: 89.00 of which 19.00 VAT (not 13.30 on the 70.00 left).
    expect(taxed).toMatchObject({ amountMinor: 8900, taxMinor: 1900 });
    expect(taxed.lines).toEqual([
      { ...plan, taxRate: 19 },
      { description: 'Credit applied', quantity: 1, unitPriceMinor: -3000, taxRate: 0 },
    ]);
  });

  it('takes a credit paid in the UK off a German charge with the 20 % it was paid with', () => {
    const taxed = taxedSpec(buyerIn('DE'), spec([plan, ...creditLines([{ amountMinor: 3000, taxRate: 20 }])]), at);
    expect(taxed).toMatchObject({ amountMinor: 10_000 + 1900 - 3000 - 600, taxMinor: 1900 - 600 });
  });

  it("taxes every line at the charge's rate when the credit's tax is more than the charge's", () => {
    // A UK credit used in Oregon (no sales tax): its 20 % would make the charge's tax negative.
    const oregon = taxedSpec(buyerIn('US', 'OR'), spec([plan, ...creditLines([{ amountMinor: 3000, taxRate: 20 }])]), at);
    expect(oregon).toMatchObject({ amountMinor: 7000, taxMinor: 0 });
    expect(oregon.lines.map((l) => l.taxRate)).toEqual([0, 0]);
    // A German credit that pays all of an Oregon period: nothing to pay, no tax (not 19.00 of VAT taken back).
    const all = taxedSpec(buyerIn('US', 'OR'), spec([plan, ...creditLines([{ amountMinor: 10_000, taxRate: 19 }])]), at);
    expect(all).toMatchObject({ amountMinor: 0, taxMinor: 0 });
  });

  it('charges the VAT of a German period an untaxed credit pays before tax', () => {
    const taxed = taxedSpec(buyerIn('DE'), spec([plan, ...creditLines([{ amountMinor: 10_000, taxRate: 0 }])]), at);
    expect(taxed).toMatchObject({ amountMinor: 1900, taxMinor: 1900 });
  });

  it("taxes a credit of no known rate at the charge's, and keeps no credit's rate on an untaxed subscription", () => {
    expect(taxedSpec(buyerIn('DE'), spec([plan, ...creditLines([{ amountMinor: 3000 }])]), at)).toMatchObject({ amountMinor: 8330, taxMinor: 1330 });
    const untaxed = taxedSpec(
      { currency: 'EUR', billingAddress: null } as Subscription,
      spec([plan, ...creditLines([{ amountMinor: 3000, taxRate: 20 }])]),
      at,
    );
    expect(untaxed.amountMinor).toBe(7000);
    expect(untaxed.lines.some((l) => 'taxedAt' in l)).toBe(false);
  });
});
