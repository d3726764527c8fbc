/**
 * Effective-dated tax rates.
 *
 * Source: the rate table bundled with the `sales-tax` package (standard VAT/GST rates of 128 countries and the base
 * sales-tax rates of 46 US states, plus Canadian provinces and Spanish territories). Only the table's JSON file is
 * read; the package's entry point — which loads an online VAT-number checker — is never imported, so no rate lookup
 * can reach the network.
 *
 * Effective dating: every rate of the bundled table is valid from `BUNDLED_TABLE_VALID_FROM`, the date of the table's
 * edition. Where the table schedules a switch after that date (its `before` entries: "this rate applies until D"),
 * the switch becomes a dated change. Later changes are listed in `RATE_CHANGES` (or passed to `createRateTable`),
 * each valid from its own instant; for an instant the rate in force is the latest entry whose `validFrom` is not after
 * it. Before the table's edition date no rate is known.
 *
 * Rates are exact decimals held as integers: `units / 10^scale` (0.0825 → 825 / 10^4), never floats.
 */
import bundledTable from 'sales-tax/res/sales_tax_rates.json';

/** Date of the bundled table's edition (`sales-tax` 2.23.0): every bundled rate applies from this instant. */
export const BUNDLED_TABLE_VALID_FROM = '2026-05-19T00:00:00.000Z';

export type TaxType = 'vat' | 'gst' | 'hst' | 'pst' | 'qst' | 'igic' | 'none';

/** An exact decimal rate: `units / 10^scale`. */
export interface DecimalRate {
  units: bigint;
  scale: number;
}

/** A rate at one level (country, or state/province on top of the country). */
export interface RateEntry {
  type: TaxType;
  rate: DecimalRate;
  validFrom: Date;
}

/** One dated change: from `validFrom` on, the country (or the country's `state`) is taxed at `rate` (a decimal string). */
export interface RateChange {
  country: string;
  state?: string;
  validFrom: string;
  type: TaxType;
  /** Decimal fraction as a string, e.g. "0.21" for 21 %. */
  rate: string;
}

/** Rate changes after the bundled table's edition, oldest first. Add entries here when a jurisdiction changes its rate. */
export const RATE_CHANGES: readonly RateChange[] = [];

interface SourceRate {
  type: string;
  rate: number;
  currency?: string;
  before?: Record<string, SourceRate>;
  states?: Record<string, SourceRate>;
}
export type SourceTable = Record<string, SourceRate>;

const TAX_TYPES: ReadonlySet<string> = new Set(['vat', 'gst', 'hst', 'pst', 'qst', 'igic', 'none']);

/** "0.0825" (or the number 0.0825) as 825 / 10^4, exactly; throws on anything that is not a plain decimal. */
export function parseDecimalRate(value: string | number): DecimalRate {
  const text = typeof value === 'number' ? String(value) : value;
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`Not a decimal rate: ${text}`);
  const fraction = m[3] ?? '';
  const units = BigInt(`${m[2]}${fraction}`);
  return { units: m[1] === '-' ? -units : units, scale: fraction.length };
}

/** The decimal as a plain string ("0.0825"). */
export function formatDecimalRate(rate: DecimalRate): string {
  const negative = rate.units < 0n;
  const digits = (negative ? -rate.units : rate.units).toString().padStart(rate.scale + 1, '0');
  const whole = digits.slice(0, digits.length - rate.scale);
  let fraction = digits.slice(digits.length - rate.scale).replace(/0+$/, '');
  if (fraction === '') fraction = '0';
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** Sum of exact decimals. */
export function addRates(a: DecimalRate, b: DecimalRate): DecimalRate {
  const scale = Math.max(a.scale, b.scale);
  return { units: a.units * 10n ** BigInt(scale - a.scale) + b.units * 10n ** BigInt(scale - b.scale), scale };
}

const taxType = (value: string): TaxType => {
  if (!TAX_TYPES.has(value)) throw new Error(`Unknown tax type ${value}`);
  return value as TaxType;
};

/** A jurisdiction's timeline: entries sorted by validFrom, oldest first. */
type Timeline = RateEntry[];

interface CountryRates {
  timeline: Timeline;
  states: Map<string, Timeline>;
}

/**
 * The entries of one source rate (with its `before` switches) from `validFrom` on: what applies at `validFrom`, then
 * one entry per switch after it.
 */
function timelineOf(source: SourceRate, validFrom: Date): Timeline {
  const switches = Object.entries(source.before ?? {})
    .map(([date, rate]) => {
      const at = new Date(date);
      if (Number.isNaN(at.getTime())) throw new Error(`Invalid switch date ${date}`);
      return { at, rate };
    })
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  // A `before` entry applies until its date; after the last one the master rate applies.
  const segments: Array<{ from: Date | null; rate: SourceRate }> = [];
  let from: Date | null = null;
  for (const s of switches) {
    segments.push({ from, rate: s.rate });
    from = s.at;
  }
  segments.push({ from, rate: source });
  const timeline: Timeline = [];
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const until = segments[i + 1]?.from ?? null;
    if (until && until.getTime() <= validFrom.getTime()) continue; // over before the edition date
    const start = seg.from && seg.from.getTime() > validFrom.getTime() ? seg.from : validFrom;
    timeline.push({ type: taxType(seg.rate.type), rate: parseDecimalRate(seg.rate.rate), validFrom: start });
  }
  return timeline;
}

function addToTimeline(timeline: Timeline, entry: RateEntry): void {
  // An entry at the same instant replaces the older one; otherwise keep the list ordered.
  const same = timeline.findIndex((e) => e.validFrom.getTime() === entry.validFrom.getTime());
  if (same >= 0) timeline[same] = entry;
  else timeline.push(entry);
  timeline.sort((a, b) => a.validFrom.getTime() - b.validFrom.getTime());
}

const inForce = (timeline: Timeline | undefined, at: Date): RateEntry | null => {
  if (!timeline) return null;
  let found: RateEntry | null = null;
  for (const e of timeline) if (e.validFrom.getTime() <= at.getTime()) found = e;
  return found;
};

/** What applies to an address at an instant. */
export type RateLookup =
  | { known: true; country: RateEntry; state: RateEntry | null }
  | { known: false; reason: 'country_unknown' | 'state_required' | 'state_unknown' | 'before_table' };

export interface RateTable {
  /** Countries (ISO 3166-1 alpha-2) the table knows. */
  readonly countries: readonly string[];
  /** States/provinces the table knows for `country`. */
  statesOf(country: string): readonly string[];
  lookup(country: string, state: string | null, at: Date): RateLookup;
}

/**
 * A table from `source` (the bundled table by default) valid from `validFrom`, plus `changes`.
 *
 * Address rules: a country whose table adds state rates (the US, Canada) needs the state; in a country without a
 * country-level tax (the US) a state missing from the table is unknown, elsewhere (e.g. Alberta) the country rate applies.
 */
export function createRateTable(options: { source?: SourceTable; validFrom?: string; changes?: readonly RateChange[] } = {}): RateTable {
  const source = options.source ?? (bundledTable as unknown as SourceTable);
  const validFrom = new Date(options.validFrom ?? BUNDLED_TABLE_VALID_FROM);
  const countries = new Map<string, CountryRates>();
  for (const [code, rate] of Object.entries(source)) {
    const states = new Map<string, Timeline>();
    for (const [stateCode, stateRate] of Object.entries(rate.states ?? {})) states.set(stateCode, timelineOf(stateRate, validFrom));
    countries.set(code, { timeline: timelineOf(rate, validFrom), states });
  }
  for (const change of options.changes ?? []) {
    const at = new Date(change.validFrom);
    if (Number.isNaN(at.getTime())) throw new Error(`Invalid change date ${change.validFrom}`);
    const entry: RateEntry = { type: taxType(change.type), rate: parseDecimalRate(change.rate), validFrom: at };
    let country = countries.get(change.country);
    if (!country) {
      country = { timeline: [], states: new Map() };
      countries.set(change.country, country);
    }
    if (change.state) {
      const timeline = country.states.get(change.state) ?? [];
      addToTimeline(timeline, entry);
      country.states.set(change.state, timeline);
    } else {
      addToTimeline(country.timeline, entry);
    }
  }

  return {
    countries: [...countries.keys()].sort(),
    statesOf: (country) => [...(countries.get(country)?.states.keys() ?? [])].sort(),
    lookup(countryCode, stateCode, at) {
      const country = countries.get(countryCode);
      if (!country) return { known: false, reason: 'country_unknown' };
      const countryEntry = inForce(country.timeline, at);
      if (!countryEntry) return { known: false, reason: country.timeline.length ? 'before_table' : 'country_unknown' };
      const addsStateTax = [...country.states.values()].some((t) => t.some((e) => e.rate.units > 0n));
      if (!stateCode) return addsStateTax ? { known: false, reason: 'state_required' } : { known: true, country: countryEntry, state: null };
      const stateTimeline = country.states.get(stateCode);
      if (!stateTimeline) {
        return countryEntry.type === 'none' ? { known: false, reason: 'state_unknown' } : { known: true, country: countryEntry, state: null };
      }
      const stateEntry = inForce(stateTimeline, at);
      if (!stateEntry) return { known: false, reason: 'before_table' };
      return { known: true, country: countryEntry, state: stateEntry };
    },
  };
}

/** The bundled table with `RATE_CHANGES` applied. */
export const defaultRateTable: RateTable = createRateTable({ changes: RATE_CHANGES });
