/**
 * Card data as it arrives to be tokenized, the card brands, and the number's normal form: what code that names
 * brands or compares numbers needs, without the validator (`cards.ts`, which re-exports all of this).
 *
 * Nothing here keeps card data: a validated card holds the brand, the last four digits and the expiry only.
 */
/** Raw card data, only ever held in memory while a token is made. */
export interface CardInput {
  /** The primary account number; spaces and dashes between digits are allowed. */
  number: string;
  cvc: string;
  /** 1..12 */
  expMonth: number;
  /** Four digits. */
  expYear: number;
  holderName?: string | null;
}

/** Card brands, named as `card-validator` (credit-card-type) names them. */
export const cardBrands = [
  'visa',
  'mastercard',
  'american-express',
  'diners-club',
  'discover',
  'jcb',
  'unionpay',
  'maestro',
  'mir',
  'elo',
  'hiper',
  'hipercard',
  'troy',
  'verve',
  'naranja',
] as const;
export type CardBrand = (typeof cardBrands)[number];

export interface ValidatedCard {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** A card expiry more than this many years ahead is a typing mistake, not a card. */
export const MAX_EXPIRY_YEARS_AHEAD = 20;

/** The number with the separators people type (spaces, dashes) removed. */
export const normalizeCardNumber = (number: string): string => number.replace(/[\s-]/g, '');
