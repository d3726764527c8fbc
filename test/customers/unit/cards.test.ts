import { describe, expect, it } from 'vitest';
import { validateCard, type CardInput } from '../../../shared/customers/cards.rules.ts';
import { DomainError } from '../../../shared/domain/errors.ts';
import { paymentMethods } from '../../../shared/domain/payment-methods.ts';

const now = new Date('2026-05-15T12:00:00.000Z');
const visa: CardInput = { number: '4242424242424242', cvc: '123', expMonth: 12, expYear: 2030 };

/** The error `validateCard` throws for `card`, as `{status, code, field}`. */
function refusal(card: CardInput, at = now) {
  try {
    validateCard(card, at);
  } catch (e) {
    if (!(e instanceof DomainError)) throw e;
    return { status: e.status, code: e.code, field: e.details.field, message: e.message };
  }
  throw new Error('the card was accepted');
}

describe('validateCard', () => {
  it('answers the brand, last four digits and expiry of a valid card', () => {
    expect(validateCard(visa, now)).toEqual({ brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 });
  });

  // Titles name the brand, never the number: the run's output is searched for card numbers.
  it.each([
    ['visa', '4242 4242 4242 4242', '4242', '123'],
    ['mastercard', '5555-5555-5555-4444', '4444', '123'],
    ['american-express', '3782 822463 10005', '0005', '1234'],
    ['discover', '6011111111111117', '1117', '123'],
    ['diners-club', '3056930009020004', '0004', '123'],
    ['jcb', '3566002020360505', '0505', '123'],
  ])('recognises a %s number, spaces and dashes ignored', (brand, number, last4, cvc) => {
    expect(validateCard({ ...visa, number, cvc }, now)).toMatchObject({ brand, last4 });
  });

  it.each([
    ['a Luhn failure', '4242424242424241'],
    ['letters', '4242abcd42424242'],
    ['too few digits', '424242424242'],
    ['too many digits for the brand', '42424242424242424'],
    ['no known brand', '9999999999999995'],
    ['an empty string', ''],
    ['a very long string', '4'.repeat(100)],
  ])('refuses %s with 400 card.invalid_number without repeating the number', (_what, number) => {
    const r = refusal({ ...visa, number });
    expect(r).toMatchObject({ status: 400, code: 'card.invalid_number', field: 'number' });
    if (number) expect(r.message).not.toContain(number);
  });

  it('accepts a card through the last day of its expiry month and refuses it from the next month on', () => {
    const card = { ...visa, expMonth: 5, expYear: 2026 };
    expect(validateCard(card, new Date('2026-05-31T23:59:59.999Z')).expMonth).toBe(5);
    expect(refusal(card, new Date('2026-06-01T00:00:00.000Z'))).toMatchObject({ status: 400, code: 'card.expired' });
    expect(refusal({ ...visa, expMonth: 12, expYear: 2025 })).toMatchObject({ status: 400, code: 'card.expired' });
  });

  it.each([
    ['month 0', { expMonth: 0 }, 'expMonth'],
    ['month 13', { expMonth: 13 }, 'expMonth'],
    ['a fractional month', { expMonth: 1.5 }, 'expMonth'],
    ['a two-digit year', { expYear: 30 }, 'expYear'],
    ['a year more than 20 years ahead', { expYear: 2047 }, 'expYear'],
  ])('refuses %s with 400 card.invalid_expiry', (_what, change, field) => {
    expect(refusal({ ...visa, ...change })).toMatchObject({ status: 400, code: 'card.invalid_expiry', field });
  });

  it('accepts an expiry 20 years ahead', () => {
    expect(validateCard({ ...visa, expYear: 2046 }, now).expYear).toBe(2046);
  });

  it.each([
    ['a 4-digit code on a Visa', '4242424242424242', '1234'],
    ['a 2-digit code', '4242424242424242', '12'],
    ['letters', '4242424242424242', '12a'],
    ['a 3-digit code on an American Express card', '378282246310005', '123'],
    ['a 5-digit code on an American Express card', '378282246310005', '12345'],
    ['an empty code', '5555555555554444', ''],
  ])('refuses %s with 400 card.invalid_cvc', (_what, number, cvc) => {
    expect(refusal({ ...visa, number, cvc })).toMatchObject({ status: 400, code: 'card.invalid_cvc', field: 'cvc' });
  });

  it('wants four digits for American Express and three for the others', () => {
    expect(validateCard({ ...visa, number: '378282246310005', cvc: '1234' }, now).brand).toBe('american-express');
    expect(validateCard({ ...visa, number: '5555555555554444', cvc: '123' }, now).brand).toBe('mastercard');
  });

  it('checks the number first, then the expiry, then the code', () => {
    expect(refusal({ number: '4242424242424241', cvc: 'x', expMonth: 13, expYear: 2000 }).code).toBe('card.invalid_number');
    expect(refusal({ ...visa, cvc: 'x', expMonth: 1, expYear: 2020 }).code).toBe('card.expired');
  });
});

describe('PaymentMethodEnum', () => {
  it("is about 170 distinct values beginning with the spec's and holding its named members", () => {
    expect(paymentMethods.slice(0, 4)).toEqual(['payment-card', 'ach', 'cash', 'check']);
    expect(new Set(paymentMethods).size).toBe(paymentMethods.length);
    expect(paymentMethods.length).toBeGreaterThanOrEqual(160);
    expect(paymentMethods.length).toBeLessThanOrEqual(180);
    for (const m of ['bank-transfer', 'cash-deposit', 'cryptocurrency', 'e-wallet', 'instant-bank-transfer', 'invoice', 'voucher', 'SEPA', 'PIX', 'UPI']) {
      expect(paymentMethods).toContain(m);
    }
  });
});
