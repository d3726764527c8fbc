import * as dineroCurrencies from 'dinero.js/currencies';
import { describe, expect, it } from 'vitest';
import { amountText, currencyCodes, divideHalfEven, exponentOf, isCurrency, toMajorUnits, toMinorUnits } from '../../../shared/domain/money.ts';

describe('currencies', () => {
  it('takes exponents from the ISO 4217 table: USD 2, JPY 0, BHD 3', () => {
    expect([exponentOf('USD'), exponentOf('JPY'), exponentOf('BHD')]).toEqual([2, 0, 3]);
  });

  it('are the table of dinero.js/currencies: every code, each with its exponent, and no other', () => {
    const table = Object.values(dineroCurrencies) as Array<{ code: string; exponent: number }>;
    expect(currencyCodes).toEqual(table.map((c) => c.code).sort());
    for (const c of table) expect([c.code, exponentOf(c.code)]).toEqual([c.code, c.exponent]);
  });

  it('knows the usual codes and not made-up ones', () => {
    expect(currencyCodes.length).toBeGreaterThan(150);
    expect(isCurrency('EUR')).toBe(true);
    expect(isCurrency('usd')).toBe(false);
    expect(isCurrency('XYZ')).toBe(false);
  });
});

describe('major to minor units', () => {
  it.each([
    [10, 'USD', 1000],
    [10.01, 'USD', 1001],
    [0.29, 'USD', 29],
    [1.005, 'BHD', 1005],
    [1000, 'JPY', 1000],
    [0, 'EUR', 0],
  ])('%s %s is %s minor units, exactly', (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency)).toBe(minor);
  });

  it.each([
    [10.001, 'USD'],
    [10.5, 'JPY'],
    [1.0001, 'BHD'],
    [-1, 'USD'],
    [Number.NaN, 'USD'],
    [Number.POSITIVE_INFINITY, 'USD'],
    [1e-7, 'USD'],
    [1e21, 'USD'],
  ])('refuses %s %s rather than rounding it', (amount, currency) => {
    expect(toMinorUnits(amount, currency)).toBeNull();
  });

  it('converts back to the same major amount', () => {
    for (const [amount, currency] of [
      [10.01, 'USD'],
      [1.005, 'BHD'],
      [1234, 'JPY'],
    ] as const) {
      expect(toMajorUnits(toMinorUnits(amount, currency)!, currency)).toBe(amount);
    }
  });
});

describe('amounts as text, for mail', () => {
  it("keep every digit of the currency's exponent, and the sign", () => {
    expect(amountText(2380, 'USD')).toBe('23.80 USD');
    expect(amountText(1000, 'USD')).toBe('10.00 USD');
    expect(amountText(5, 'EUR')).toBe('0.05 EUR');
    expect(amountText(0, 'USD')).toBe('0.00 USD');
    expect(amountText(500, 'JPY')).toBe('500 JPY');
    expect(amountText(-1250, 'BHD')).toBe('-1.250 BHD');
    expect(amountText(123456789012, 'USD')).toBe('1234567890.12 USD');
  });

  it('read back as the same minor units, in every currency', () => {
    for (const code of currencyCodes) {
      for (const minor of [0, 1, 7, 99, 100, 12345, 900719925474]) {
        const [major] = amountText(minor, code).split(' ');
        expect(toMinorUnits(Number(major), code), `${minor} ${code}`).toBe(minor);
      }
    }
  });
});

describe('the rounding rule: exact half-even division', () => {
  it.each([
    [5n, 10n, 0n],
    [15n, 10n, 2n],
    [25n, 10n, 2n],
    [35n, 10n, 4n],
    [14n, 10n, 1n],
    [16n, 10n, 2n],
    [-5n, 10n, 0n],
    [-15n, 10n, -2n],
    [0n, 7n, 0n],
  ])('%s / %s rounds to %s', (n, d, expected) => {
    expect(divideHalfEven(n, d)).toBe(expected);
  });

  it('is exact where floating point is not: 7% of 150 is 10.5, which rounds to 10', () => {
    expect(150 * 0.07).not.toBe(10.5);
    expect(divideHalfEven(150n * 7n, 100n)).toBe(10n);
  });

  it('refuses a divisor that is not positive', () => {
    expect(() => divideHalfEven(1n, 0n)).toThrow(RangeError);
  });
});
