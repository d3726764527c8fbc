import { describe, expect, it } from 'vitest';
import {
  applyPromo,
  discountOf,
  isLegacyReceiptId,
  LEGACY_RECEIPT_SUNSET,
  legacyReceiptHeaders,
  legacyReceiptsAccepted,
  planLines,
  promoRefusal,
  promoRefusalError,
  receiptNumberText,
  type PromoTerms,
} from '../../../shared/checkout/checkout.rules.ts';
import { receiptMail, receiptMails } from '../../../shared/checkout/receipt.mails.ts';
import { sellerOfRecordFor } from '../../../infra/seller-of-record.ts';
import type { Transaction } from '../../../shared/payments/index.ts';

const NOW = '2026-06-01T00:00:00.000Z';
const terms = (t: Partial<PromoTerms> = {}): PromoTerms => ({
  code: 'SAVE',
  percentOffBasisPoints: 1000,
  amountOff: null,
  currency: null,
  planIds: [],
  expiresAt: null,
  maxRedemptions: null,
  timesRedeemed: 0,
  isActive: true,
  ...t,
});

describe('promo codes at checkout', () => {
  it('names the first reason a code cannot be used, in a fixed order', () => {
    expect(promoRefusal(null, 'plan_a', 'USD', NOW)).toBe('not_found');
    expect(promoRefusal(terms({ isActive: false, expiresAt: '2020-01-01T00:00:00Z' }), 'plan_a', 'USD', NOW)).toBe('inactive');
    expect(promoRefusal(terms({ expiresAt: NOW }), 'plan_a', 'USD', NOW)).toBe('expired');
    expect(promoRefusal(terms({ expiresAt: '2026-06-01T00:00:00.001Z' }), 'plan_a', 'USD', NOW)).toBeNull();
    expect(promoRefusal(terms({ maxRedemptions: 2, timesRedeemed: 2 }), 'plan_a', 'USD', NOW)).toBe('exhausted');
    expect(promoRefusal(terms({ maxRedemptions: 2, timesRedeemed: 1 }), 'plan_a', 'USD', NOW)).toBeNull();
    expect(promoRefusal(terms({ planIds: ['plan_b'] }), 'plan_a', 'USD', NOW)).toBe('wrong_plan');
    expect(promoRefusal(terms({ planIds: ['plan_b', 'plan_a'] }), 'plan_a', 'USD', NOW)).toBeNull();
    expect(promoRefusal(terms({ percentOffBasisPoints: null, amountOff: 500, currency: 'EUR' }), 'plan_a', 'USD', NOW)).toBe('wrong_currency');
    // A percent off fits every currency.
    expect(promoRefusal(terms(), 'plan_a', 'JPY', NOW)).toBeNull();
  });

  it('answers each refusal as a 422 with its own code', () => {
    const e = promoRefusalError('exhausted');
    expect(e).toMatchObject({ status: 422, code: 'checkout.promo_code_exhausted' });
  });

  it('rounds a percent off half-even at the minor unit, whatever the exponent', () => {
    // 10 % of $10.05 = 100.5¢ → 100¢; of $10.15 = 101.5¢ → 102¢.
    expect(discountOf(terms(), 1005)).toBe(100);
    expect(discountOf(terms(), 1015)).toBe(102);
    // 12.5 % of ¥100 = ¥12.5 → ¥12; of ¥140 = ¥17.5 → ¥18.
    expect(discountOf(terms({ percentOffBasisPoints: 1250 }), 100)).toBe(12);
    expect(discountOf(terms({ percentOffBasisPoints: 1250 }), 140)).toBe(18);
    // 100 % off is the whole line.
    expect(discountOf(terms({ percentOffBasisPoints: 10_000 }), 999)).toBe(999);
  });

  it('takes an amount off up to the line, never below zero', () => {
    expect(discountOf(terms({ percentOffBasisPoints: null, amountOff: 300 }), 1000)).toBe(300);
    expect(discountOf(terms({ percentOffBasisPoints: null, amountOff: 3000 }), 1000)).toBe(1000);
  });

  it('discounts the plan line only, never the setup price; a trial makes the plan line due later', () => {
    const lines = applyPromo(planLines({ name: 'Pro', price: 1000, setupPrice: 500, trial: null }, 3), terms());
    expect(lines).toEqual([
      { type: 'plan', description: 'Pro', quantity: 3, unitAmount: 1000, amount: 3000, discount: 300, dueToday: true },
      { type: 'setup', description: 'Pro setup', quantity: 1, unitAmount: 500, amount: 500, discount: 0, dueToday: true },
    ]);
    expect(planLines({ name: 'Pro', price: 1000, setupPrice: null, trial: { unit: 'day', length: 7 } }, 1)[0]!.dueToday).toBe(false);
  });
});

describe('legacy receipt ids', () => {
  it('are accepted up to the instant before 2027-01-15T00:00:00Z and refused from it on', () => {
    expect(LEGACY_RECEIPT_SUNSET.toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(legacyReceiptsAccepted(new Date('2027-01-14T23:59:59.999Z'))).toBe(true);
    expect(legacyReceiptsAccepted(new Date('2027-01-15T00:00:00.000Z'))).toBe(false);
    expect(legacyReceiptsAccepted(new Date('2030-01-01T00:00:00.000Z'))).toBe(false);
  });

  it('are told apart from transaction ids by their pay_ prefix', () => {
    expect(isLegacyReceiptId('pay_abc123XYZ')).toBe(true);
    expect(isLegacyReceiptId('0190a3b2-7c4d-7e5f-8a6b-1c2d3e4f5a6b')).toBe(false);
    expect(isLegacyReceiptId('pay_')).toBe(false);
    expect(isLegacyReceiptId('pay_a/b')).toBe(false);
  });

  it('are answered with RFC 9745 Deprecation, RFC 8594 Sunset and a Link to the preferred URL', () => {
    const h = legacyReceiptHeaders('https://pay.example/api/v1/checkout/plans/p/receipts/r');
    expect(h.deprecation).toMatch(/^@\d{10}$/);
    expect(Number(h.deprecation!.slice(1)) * 1000).toBeLessThan(LEGACY_RECEIPT_SUNSET.getTime());
    expect(h.sunset).toBe('Fri, 15 Jan 2027 00:00:00 GMT');
    expect(h.link).toBe('<https://pay.example/api/v1/checkout/plans/p/receipts/r>; rel="successor-version"');
  });
});

describe('receipt numbers', () => {
  it('are R- and at least six digits, counted from 1', () => {
    expect(receiptNumberText(1)).toBe('R-000001');
    expect(receiptNumberText(123)).toBe('R-000123');
    expect(receiptNumberText(999_999)).toBe('R-999999');
    expect(receiptNumberText(1_234_567)).toBe('R-1234567');
  });

  it('refuse what is not a whole number from 1', () => {
    for (const n of [0, -1, 1.5, Number.NaN, 2 ** 53]) expect(() => receiptNumberText(n)).toThrow(RangeError);
  });
});

describe('receipt mail', () => {
  const paid = (checkout: { taxRate?: string }) =>
    ({
      currency: 'EUR',
      amountMinor: 2380,
      processedAt: NOW,
      card: { brand: 'visa', last4: '4242' },
      checkout: {
        lines: [{ description: 'Course', quantity: 1, unitAmountMinor: 2000, amountMinor: 2000 }],
        subtotalMinor: 2000,
        discountMinor: 0,
        taxMinor: 380,
        promoCode: null,
        ...checkout,
      },
    }) as unknown as Transaction;
  const seller = { merchantName: 'Shop', sellerOfRecord: sellerOfRecordFor('sandbox') };
  const taxLine = (data: object) =>
    receiptMails['checkout.receipt'](data as never)
      .text.split('\n')
      .find((l) => l.startsWith('Tax'));

  it('names the rate the tax was charged at, as the payment kept it', () => {
    const mail = receiptMail(paid({ taxRate: '0.19' }), seller, 7);
    expect(mail.data.taxRate).toBe('0.19');
    expect(taxLine(mail.data)).toBe('Tax (19%): 3.80 EUR');
  });

  it('shows the tax without a rate for a payment, or a mail written, before payments kept it', () => {
    const mail = receiptMail(paid({}), seller, 7);
    expect(mail.data.taxRate).toBeNull();
    expect(taxLine(mail.data)).toBe('Tax: 3.80 EUR');
    const { taxRate: _, ...written } = mail.data;
    expect(taxLine(written)).toBe('Tax: 3.80 EUR');
  });
});
