/**
 * Money. Inside the platform every amount is an integer number of the currency's minor units (cents for USD,
 * yen for JPY, fils for BHD); the ISO 4217 exponent of each currency is the one `dinero.js/currencies` gives (its
 * table written out below, held equal to it by a test). Faces that speak major units (the organization API, merchant
 * webhooks) convert at the edge:
 *
 * - major → minor is exact or refused: `10.001` USD has more decimals than USD's two and is an error, never
 *   rounded; JPY takes whole numbers only.
 * - minor → major divides by 10^exponent; the result is exact for every amount below 2^53 minor units.
 * - The one rounding rule, for computed amounts (percentages, proration, tax): round half to even, at the
 *   minor unit, once, at the end of the computation, on exact integers (`divideHalfEven`).
 */

/**
 * The ISO 4217 codes by minor-unit exponent (index 0 to 4): the table of `dinero.js/currencies`, written out so that
 * a bundle carries these codes rather than dinero's currency objects. `test/domain/unit/money.test.ts` holds it equal to
 * `dinero.js/currencies` (every code, each with dinero's exponent, none more).
 */
const codesByExponent: readonly string[] = [
  'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF',
  'MGA MRU',
  `AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF
CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ
GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MKD MMK
MNT MOP MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB
SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD
USN UYU UZS VED VES WST XAD XCD XCG YER ZAR ZMW ZWG`,
  'BHD IQD JOD KWD LYD OMR TND',
  'CLF UYW',
];

const exponents: ReadonlyMap<string, number> = new Map(
  codesByExponent.flatMap((codes, exponent) => codes.split(/\s+/).map((code) => [code, exponent] as const)),
);

/** Every ISO 4217 code the platform knows, sorted. */
export const currencyCodes: readonly string[] = [...exponents.keys()].sort();

export const isCurrency = (code: string): boolean => exponents.has(code);

/** The currency's minor-unit exponent (2 for USD, 0 for JPY, 3 for BHD). */
export function exponentOf(code: string): number {
  const exponent = exponents.get(code);
  if (exponent === undefined) throw new Error(`Unknown currency ${code}`);
  return exponent;
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

/**
 * The most one charge takes, in major units of its currency: a payment made through the API, one period of a
 * subscription's items before tax, an invoice's total. Within it every amount, and every sum the ledger keeps of
 * them, stays a whole number JavaScript holds exactly.
 */
export const MAX_CHARGE_AMOUNT = 10_000_000;

/** Whether `minor` minor units of `currency` are a whole amount of at most `MAX_CHARGE_AMOUNT`. */
export const withinChargeLimit = (minor: number, currency: string): boolean =>
  Number.isSafeInteger(minor) && toMajorUnits(minor, currency) <= MAX_CHARGE_AMOUNT;

/** Integer minor units as a major-unit JSON number. */
export function toMajorUnits(minor: number, currency: string): number {
  return minor / 10 ** exponentOf(currency);
}

/** Integer minor units in major units as exact text, every digit of the currency's exponent kept: `23.80`, `500`, `-1.250`. */
export function majorUnitsText(minor: number, currency: string): string {
  const e = exponentOf(currency);
  const digits = String(Math.abs(minor)).padStart(e + 1, '0');
  const major = e ? `${digits.slice(0, -e)}.${digits.slice(-e)}` : digits;
  return `${minor < 0 ? '-' : ''}${major}`;
}

/** Integer minor units as text with the currency's code, as mails and invoice PDFs write them: `23.80 USD`, `500 JPY`. */
export const amountText = (minor: number, currency: string): string => `${majorUnitsText(minor, currency)} ${currency}`;

/**
 * The platform's one rounding rule: `n / d` rounded half to even, exactly, on integers (a computed amount is an
 * exact fraction of minor units — e.g. amount × rate as integer numerator and power-of-ten denominator — and is
 * rounded once, at the minor unit).
 */
export function divideHalfEven(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('divisor must be positive');
  if (n < 0n) return -divideHalfEven(-n, d);
  const q = n / d;
  const twiceRemainder = (n % d) * 2n;
  if (twiceRemainder > d) return q + 1n;
  if (twiceRemainder < d) return q;
  return q % 2n === 0n ? q : q + 1n;
}
