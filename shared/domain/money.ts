/**
 * Money. Inside the platform every amount is an integer number of the currency's minor units (cents for USD,
 * yen for JPY, fils for BHD); the ISO 4217 exponent of each currency comes from `dinero.js/currencies`, not a
 * hand-typed list. Faces that speak major units (the organization API, merchant webhooks) convert at the edge:
 *
 * - major → minor is exact or refused: `10.001` USD has more decimals than USD's two and is an error, never
 *   rounded; JPY takes whole numbers only.
 * - minor → major divides by 10^exponent; the result is exact for every amount below 2^53 minor units.
 * - The one rounding rule, for computed amounts (percentages, proration, tax): round half to even, at the
 *   minor unit, once, at the end of the computation (`roundHalfEven`).
 */
import * as currencyTable from 'dinero.js/currencies';

interface CurrencyInfo { code: string; exponent: number }

const currencies: ReadonlyMap<string, CurrencyInfo> = new Map(
  (Object.values(currencyTable) as Array<{ code: string; exponent: number }>).map((c) => [c.code, { code: c.code, exponent: c.exponent }]),
);

/** Every ISO 4217 code the platform knows, sorted. */
export const currencyCodes: readonly string[] = [...currencies.keys()].sort();

export const isCurrency = (code: string): boolean => currencies.has(code);

/** The currency's minor-unit exponent (2 for USD, 0 for JPY, 3 for BHD). */
export function exponentOf(code: string): number {
  const c = currencies.get(code);
  if (!c) throw new Error(`Unknown currency ${code}`);
  return c.exponent;
}

/**
 * `amount` in major units as integer minor units of `currency`, or null when it is not a finite, non-negative
 * amount with at most the currency's number of decimals, or is too large to hold exactly.
 */
export function toMinorUnits(amount: number, currency: string): number | null {
  if (!Number.isFinite(amount) || amount < 0) return null;
  const exponent = exponentOf(currency);
  const text = String(amount);
  if (/e/i.test(text)) return null; // 1e-7 has too many decimals; 1e21 is far past any amount we hold
  const [whole, fraction = ''] = text.split('.');
  if (fraction.length > exponent) return null;
  const minor = Number(`${whole}${fraction.padEnd(exponent, '0')}`);
  return Number.isSafeInteger(minor) ? minor : null;
}

/** Integer minor units as a major-unit JSON number. */
export function toMajorUnits(minor: number, currency: string): number {
  return minor / 10 ** exponentOf(currency);
}

/** Round half to even: the platform's one rounding rule for computed minor-unit amounts. */
export function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const diff = value - floor;
  if (Math.abs(diff - 0.5) < 1e-9) return floor % 2 === 0 ? floor : floor + 1;
  return Math.round(value);
}
