/**
 * Card validation with `card-validator`: the number's brand and Luhn check, an expiry that has not passed, and a
 * verification value of the brand's length (four digits for American Express, three for the others). Refusals
 * are 400s that name the field and never repeat its value. The card data itself is in `card-data.ts`
 * (re-exported here); code that does not validate imports that, and does not carry the validator.
 */
import cardValidator from 'card-validator';
import { cardBrands, MAX_EXPIRY_YEARS_AHEAD, normalizeCardNumber, type CardBrand, type CardInput, type ValidatedCard } from '../domain/card-data.ts';
import { BadRequestError } from '../domain/errors.ts';

export * from '../domain/card-data.ts';

const isBrand = (type: string): type is CardBrand => (cardBrands as readonly string[]).includes(type);

const invalidNumber = () => new BadRequestError('card.invalid_number', 'The card number is not a valid card number.', { field: 'number' });

/**
 * Validates `card` at `now`: returns its brand, last four digits and expiry, or throws a 400
 * `card.invalid_number` (not digits, unknown brand, wrong length for the brand, Luhn check fails),
 * `card.invalid_expiry` (month outside 1..12, a year that is not four digits or too far ahead), `card.expired`
 * (the last day of the expiry month has passed, in UTC) or `card.invalid_cvc` (not the brand's length).
 */
export function validateCard(card: CardInput, now: Date = new Date()): ValidatedCard {
  if (typeof card.number !== 'string' || card.number.length > 32) throw invalidNumber();
  const digits = normalizeCardNumber(card.number);
  if (!/^\d{12,19}$/.test(digits)) throw invalidNumber();
  const result = cardValidator.number(digits);
  if (!result.isValid || !result.card || !isBrand(result.card.type)) throw invalidNumber();
  const brand = result.card.type;

  const { expMonth, expYear } = card;
  const thisYear = now.getUTCFullYear();
  if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12) {
    throw new BadRequestError('card.invalid_expiry', 'The expiry month must be 1 to 12.', { field: 'expMonth' });
  }
  if (!Number.isInteger(expYear) || expYear < 1000 || expYear > 9999 || expYear > thisYear + MAX_EXPIRY_YEARS_AHEAD) {
    throw new BadRequestError('card.invalid_expiry', `The expiry year must be four digits and at most ${MAX_EXPIRY_YEARS_AHEAD} years ahead.`, {
      field: 'expYear',
    });
  }
  // A card is good through the last day of its expiry month.
  if (Date.UTC(expYear, expMonth, 1) <= now.getTime()) {
    throw new BadRequestError('card.expired', 'The card has expired.', { field: 'expYear' });
  }

  const cvcSize = result.card.code.size;
  if (!cardValidator.cvv(card.cvc, cvcSize).isValid) {
    throw new BadRequestError('card.invalid_cvc', `The card verification value must be ${cvcSize} digits for this card.`, { field: 'cvc' });
  }
  return { brand, last4: digits.slice(-4), expMonth, expYear };
}
