/**
 * Random ids for payment records: a prefix and base-62 characters. Unlike hex, base 62 practically never puts
 * 13 or more decimal digits in a row (about 1 in 10^10 per position), so an id never looks like a card number to
 * the scans that make sure no card number is stored or logged.
 */
import { randomInt } from 'node:crypto';

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `<prefix>_` and `length` random alphanumerics (24 give about 143 bits). */
export const alphanumericId = (prefix: string, length = 24): string =>
  `${prefix}_${Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('')}`;
