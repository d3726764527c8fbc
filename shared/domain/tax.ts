/**
 * The tax port: tax for the lines of a purchase, a currency and a billing address at an instant.
 *
 * Rounding rule (one, everywhere): tax per line = amountMinor × quantity × rate, rounded once to the currency's minor
 * unit with half-even (the platform's one rounding rule, `divideHalfEven` in shared/domain/money.ts), computed on exact integers — the rate is an exact decimal
 * (`units / 10^scale`) and the product is a BigInt, so no floating-point error can move a half. The total tax is the
 * sum of the rounded line taxes. Amounts are already minor units, so the same integer rule serves every exponent
 * (JPY 0, USD 2, BHD 3).
 *
 * Every answer says where its rates come from (`rates[].source`) and, for a known 0 that the rate alone does not
 * explain (a US state without sales tax), why (`reason: 'no_sales_tax'`).
 *
 * When no rate is known for the address the port refuses with 422 `checkout.tax_unavailable` — never a silent 0 —
 * and `details.reason` says why: `country_not_sold` (a country the platform does not sell to: no rate is known for
 * it, and the checkout does not offer it, `checkoutCountryCodes`), `country_unknown` (not a country code),
 * `state_required` (a US or Canadian address without its state), `state_unknown` (not one of the country's states)
 * or `before_table` (an instant before the rate table). A known 0 % rate gives a real 0.
 */
import { countryCodes } from './countries.ts';
import { BadRequestError, UnprocessableError } from './errors.ts';
import { divideHalfEven, isCurrency } from './money.ts';
import { addRates, defaultRateTable, formatDecimalRate, type DecimalRate, type RateEntry, type RateTable, type TaxReason, type TaxType } from './tax-rates.ts';

/**
 * The countries the checkout sells to, and so offers (ISO 3166-1 alpha-2, in the order of `countryCodes`): those
 * the rate table knows. Every other country is refused (`country_not_sold`) and not offered.
 */
export const checkoutCountryCodes: readonly string[] = countryCodes.filter((code) => defaultRateTable.countries.includes(code));

/** The countries the platform does not sell to: no rate is known for them (`country_not_sold`). */
export const refusedCountryCodes: readonly string[] = countryCodes.filter((code) => !checkoutCountryCodes.includes(code));

export interface TaxQuoteInput {
  lines: Array<{ amountMinor: number; quantity?: number }>;
  currency: string;
  address: { country: string; state?: string | null; postalCode?: string | null };
  at: Date;
}

export interface TaxRateUsed {
  /** `country` for the national rate, `state` for a state/province rate added on top of it. */
  level: 'country' | 'state';
  type: TaxType;
  /** Exact decimal fraction, e.g. "0.0825". */
  rate: string;
  /** ISO timestamp from which this rate applies. */
  validFrom: string;
  /** Where the rate comes from, e.g. `sales-tax@2.23.0` (the bundled table) or `platform:us-states-without-sales-tax`. */
  source: string;
}

export interface TaxQuoteLine {
  amountMinor: number;
  quantity: number;
  /** amountMinor × quantity. */
  taxableMinor: number;
  taxMinor: number;
}

export interface TaxQuote {
  currency: string;
  jurisdiction: { country: string; state: string | null };
  /** Combined rate applied to every line (country + state), exact decimal string. */
  rate: string;
  rates: TaxRateUsed[];
  /** Why the rate is what it is when the rate alone does not say: `no_sales_tax` (a state without sales tax); else null. */
  reason: TaxReason | null;
  lines: TaxQuoteLine[];
  taxableMinor: number;
  taxMinor: number;
  /** taxableMinor + taxMinor. */
  totalMinor: number;
}

export interface TaxPort {
  quote(input: TaxQuoteInput): TaxQuote;
}

export const TAX_UNAVAILABLE = 'checkout.tax_unavailable';

/** round(amountMinor × rate) half-even, exactly. */
export function taxOf(amountMinor: bigint, rate: DecimalRate): bigint {
  return divideHalfEven(amountMinor * rate.units, 10n ** BigInt(rate.scale));
}

/**
 * The tax within `grossMinor`, a price that includes it at `rate`: round(gross × rate / (1 + rate)) half-even, exactly
 * (the same one rounding rule, once). 119.00 at 19 % holds 19.00; 100.00 holds 15.97.
 */
export function includedTaxOf(grossMinor: bigint, rate: DecimalRate): bigint {
  const whole = 10n ** BigInt(rate.scale);
  return divideHalfEven(grossMinor * rate.units, whole + rate.units);
}

/** A buyer's address as far as tax needs it. */
export interface TaxAddress {
  country: string;
  state: string | null;
  postalCode: string | null;
}

type Place = { country?: string | null; region?: string | null; zip?: string | null } | null | undefined;

/**
 * Where a buyer is taxed when the platform charges a saved card (docs/tax.md): the card's billing country (and
 * region), else the customer's address; null when neither names a country.
 */
export function buyerTaxAddress(card: Place, customer: Place): TaxAddress | null {
  const place = card?.country ? card : customer?.country ? customer : null;
  return place ? { country: place.country!, state: place.region ?? null, postalCode: place.zip ?? null } : null;
}

const toSafeNumber = (value: bigint): number => {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new BadRequestError('checkout.amount_too_large', 'The amount is too large to tax');
  }
  return Number(value);
};

/**
 * A rate as a quote names it. A US state's rate is its sales tax, whatever the table files it under (the bundled
 * `sales-tax` table lists the states' base rates with the VAT rates).
 */
const used = (level: 'country' | 'state', e: RateEntry, country: string): TaxRateUsed => ({
  level,
  type: level === 'state' && country === 'US' && e.type === 'vat' ? 'sales' : e.type,
  rate: formatDecimalRate(e.rate),
  validFrom: e.validFrom.toISOString(),
  source: e.source,
});

const REASONS: Record<string, string> = {
  country_not_sold: 'The platform does not sell to this country: no tax rate is known for it',
  country_unknown: 'Not a known country code',
  state_required: 'A state or province is needed to calculate tax for this country',
  state_unknown: 'Not a known state or province of this country',
  before_table: 'No tax rate is known for this date',
};

/** The ISO country codes, for telling a country the platform does not sell to from a code that names none. */
const isoCountries: ReadonlySet<string> = new Set(countryCodes);

/** A tax port over `table` (the bundled, effective-dated table by default). Pure: no I/O. */
export function createTaxPort(table: RateTable = defaultRateTable): TaxPort {
  return {
    quote(input) {
      if (!isCurrency(input.currency)) throw new BadRequestError('checkout.currency_invalid', `Unknown currency ${input.currency}`);
      if (Number.isNaN(input.at.getTime())) throw new BadRequestError('checkout.tax_date_invalid', 'The tax date is not a valid date');
      const lines = input.lines.map((line, index) => {
        const quantity = line.quantity ?? 1;
        if (!Number.isSafeInteger(line.amountMinor) || line.amountMinor < 0) {
          throw new BadRequestError('checkout.amount_invalid', `Line ${index}: amountMinor must be a non-negative integer`, { line: index });
        }
        if (!Number.isSafeInteger(quantity) || quantity < 1) {
          throw new BadRequestError('checkout.quantity_invalid', `Line ${index}: quantity must be a positive integer`, { line: index });
        }
        return { amountMinor: line.amountMinor, quantity, taxable: BigInt(line.amountMinor) * BigInt(quantity) };
      });

      const country = input.address.country.trim().toUpperCase();
      const state = input.address.state?.trim().toUpperCase() || null;
      const found = /^[A-Z]{2}$/.test(country) ? table.lookup(country, state, input.at) : ({ known: false, reason: 'country_unknown' } as const);
      if (!found.known) {
        const reason = found.reason === 'country_unknown' && isoCountries.has(country) ? 'country_not_sold' : found.reason;
        throw new UnprocessableError(TAX_UNAVAILABLE, REASONS[reason] ?? 'Tax cannot be calculated for this address', {
          reason,
          country,
          state,
        });
      }

      const rate = found.state ? addRates(found.country.rate, found.state.rate) : found.country.rate;
      const rates = [used('country', found.country, country), ...(found.state ? [used('state', found.state, country)] : [])];
      let taxable = 0n;
      let tax = 0n;
      const quoted: TaxQuoteLine[] = lines.map((line) => {
        const lineTax = taxOf(line.taxable, rate);
        taxable += line.taxable;
        tax += lineTax;
        return { amountMinor: line.amountMinor, quantity: line.quantity, taxableMinor: toSafeNumber(line.taxable), taxMinor: toSafeNumber(lineTax) };
      });
      return {
        currency: input.currency,
        jurisdiction: { country, state: found.state ? state : null },
        rate: formatDecimalRate(rate),
        rates,
        reason: found.state?.reason ?? found.country.reason,
        lines: quoted,
        taxableMinor: toSafeNumber(taxable),
        taxMinor: toSafeNumber(tax),
        totalMinor: toSafeNumber(taxable + tax),
      };
    },
  };
}

/** The platform's tax port: bundled rates, effective-dated. */
export const taxPort: TaxPort = createTaxPort();
