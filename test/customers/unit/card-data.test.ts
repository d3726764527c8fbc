import { describe, expect, it } from 'vitest';
import { findCardData } from '../../support/card-data.ts';

describe('the card-data scan of the test run', () => {
  it.each([
    ['a bare number', 'charged 4242424242424242 ok'],
    ['a grouped number', '{"pan":"4242 4242 4242 4242"}'],
    ['a dashed Amex number', 'card 3782-822463-10005'],
    ['a Mastercard number in JSON', '{"n":"5555555555554444"}'],
    ['a Discover number at the end', 'x=6011111111111117'],
  ])('finds %s', (_, text) => {
    expect(findCardData(text).map((f) => f.kind)).toContain('card-number');
  });

  it.each([
    ['cvv', '{"cvv":"123"}'],
    ['cardVerificationValue', '{"cardVerificationValue": "1234"}'],
    ['cvc', 'cvc=987'],
    ['security_code', '"security_code":"321"'],
  ])('finds a verification value in a %s field', (_, text) => {
    expect(findCardData(text)).toEqual([expect.objectContaining({ kind: 'verification-value' })]);
  });

  it('masks what it reports', () => {
    expect(findCardData('4242424242424242')[0]!.masked).toBe('************4242');
  });

  it.each([
    ['epoch milliseconds', '{"timeEpoch":1735689600000}'],
    ['a UUID', '019380f2-6f1e-7c3a-9b7d-2f5e8a1c4d3b'],
    ['a Luhn-invalid 16-digit number', '4242424242424241'],
    ['a phone number', '+1 415 555 2671'],
    ['an ISO timestamp', '2025-01-01T00:00:00.000Z'],
    ['last four and a brand', '{"brand":"visa","last4":"4242"}'],
    ['a 64-hex secret', 'a'.repeat(64)],
    ['digits inside a hex id', 'prod_4242424242424242ab3f09c1d2e4f6a7'],
    ['digits at the end of a hex hash', 'c0ffee4242424242424242'],
    // Luhn-valid with a brand when the groups are joined, as random UUIDs sometimes are:
    ['a UUID whose first three groups are digits', 'USER#62614797-6782-4410-b6b1-5542660f804c'],
    ['a UUID whose last two groups are digits', 'order-f5f59a8f-9006-4e52-8163-177984292269'],
  ])('ignores %s', (_, text) => {
    expect(findCardData(text)).toEqual([]);
  });
});
