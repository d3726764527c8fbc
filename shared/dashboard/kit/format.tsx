/** @jsxImportSource hono/jsx */
/**
 * How the pages show amounts and times: an amount in its currency's exponent with `Intl.NumberFormat`, and a time
 * as a `<time>` holding its UTC value (shown on hover), which the page's script rewrites in the browser's own time
 * zone (without the script, the UTC time stays).
 */
import { utcText } from '../../domain/time.ts';
import { exponentOf, isCurrency, toMajorUnits } from '../../domain/money.ts';

const formats = new Map<string, Intl.NumberFormat>();

/** Integer minor units of `currency` as text (`$1,234.50`, `¥500`, `BHD 1.250`). */
export function formatMoney(minor: number, currency: string): string {
  if (!isCurrency(currency)) return `${minor} ${currency}`;
  let format = formats.get(currency);
  if (!format) {
    const digits = exponentOf(currency);
    format = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(currency, format);
  }
  return format.format(toMajorUnits(minor, currency));
}

/**
 * How an amount field (`what`) of `currency` is written, as the forms ask for it: a point before the decimals, no thousands
 * separator (a comma is refused, never dropped or read as a point).
 */
export function amountFieldHint(currency: string, what = 'amount'): string {
  const digits = isCurrency(currency) ? exponentOf(currency) : 2;
  return digits === 0
    ? `Enter the ${what} in ${currency} as a whole number with no thousands separator, like 500.`
    : `Enter the ${what} in ${currency} as a number with a point before the decimals and no thousands separator, like 12.${'5'.padEnd(digits, '0')}.`;
}

const KIB = 1024;
const MIB = 1024 * KIB;
const sizeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/**
 * A file's size as people read it, the one way every page shows a size (an uploaded file's, a limit's): under
 * 1 KiB its exact bytes (`26 bytes`, `1 byte`), never rounded up; under 1 MiB whole KiB, rounded (`3 KiB`); above,
 * MiB to one decimal (`2.5 MiB`, `10 MiB`). A size that rounds to 1,024 KiB is shown as `1 MiB`.
 */
export function formatBytes(bytes: number): string {
  if (bytes < KIB) return bytes === 1 ? '1 byte' : `${sizeNumber.format(bytes)} bytes`;
  const kib = Math.round(bytes / KIB);
  if (kib < KIB) return `${sizeNumber.format(kib)} KiB`;
  return `${sizeNumber.format(Math.round((bytes / MIB) * 10) / 10)} MiB`;
}

export const Money = ({ minor, currency }: { minor: number; currency: string }) => <span class="money">{formatMoney(minor, currency)}</span>;

/** A time: the UTC value in `datetime` and on hover; the script shows it in the browser's time zone. */
export const Time = ({ iso }: { iso: string | null | undefined }) =>
  iso ? (
    <time datetime={iso} title={utcText(iso)}>
      {utcText(iso)}
    </time>
  ) : (
    <span class="muted">—</span>
  );

/** A status as a coloured badge (the word itself says it; the colour only helps). `partially-refunded` reads as `partially refunded`. */
export function Status({ status }: { status: string }) {
  const key = status.replace(/-/g, '_');
  const tone = /^(completed|succeeded|paid|active|delivered|ok|won|live|trialing|settled|refunded|done)$/.test(key)
    ? 'ok'
    : /^(failed|declined|lost|canceled|cancelled|open_circuit|error|past_due|unpaid)$/.test(key)
      ? 'bad'
      : /^(pending|processing|paused|partially_refunded|needs_response|skipped|to_do)$/.test(key)
        ? 'warn'
        : '';
  return <span class={`badge ${tone}`.trim()}>{key.replace(/_/g, ' ')}</span>;
}
