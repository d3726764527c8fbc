/** How the checkout page writes amounts, rates, counts and card brands. */

/** The digits of `currency`'s minor unit (2 when the browser does not know it). */
function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}
/** `amount` (major units) of `currency`, written with its `sign` (a sign of letters spaced off) and a minus when negative. */
export function moneyText(amount: number, currency: string, sign: string): string {
  const digits = fractionDigits(currency);
  const n = Math.abs(amount).toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const shown = /^[A-Za-z]+$/.test(sign) ? `${sign}\u00a0` : sign;
  return (amount < 0 ? '\u2212' : '') + shown + n;
}
/** `amount` rounded to the minor unit of `currency`. */
export function roundTo(amount: number, currency: string): number {
  const f = 10 ** fractionDigits(currency);
  return Math.round(amount * f) / f;
}
export function percent(rate: string): string {
  return `${String(+(parseFloat(rate) * 100).toFixed(3))}%`;
}
export function plural(n: number, unit: string): string {
  return n === 1 ? unit : `${n} ${unit}s`;
}
const BRAND_NAMES: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  'american-express': 'American Express',
  discover: 'Discover',
  'diners-club': 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  maestro: 'Maestro',
};
export function brandName(brand: string): string {
  return BRAND_NAMES[brand] || brand;
}
