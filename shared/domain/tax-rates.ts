/**
 * Effective-dated tax rates.
 *
 * Source: the rate table of the `sales-tax` package (standard VAT/GST rates of 128 countries and the base sales-tax
 * rates of 45 US states and DC, plus Canadian provinces and Spanish territories), written out below (`bundledRates`) and
 * held equal to the package's JSON file by `test/domain/unit/tax.test.ts`. Nothing of the package is imported — neither its
 * entry point, which loads an online VAT-number checker, nor its JSON (8 KB of every bundle that taxes) — so no rate
 * lookup can reach the network.
 *
 * On top of the package's table the platform lists (`NO_SALES_TAX_RATES`) the five US states that levy no state sales
 * tax (Alaska, Delaware, Montana, New Hampshire, Oregon), which the package leaves out: each is a known 0 with the
 * reason `no_sales_tax`, never an unknown state. `SUBDIVISIONS` names the states and provinces of the countries whose
 * tax depends on them (the US: 50 states and DC; Canada: 13 provinces and territories); any other state of those
 * countries is refused as unknown. Every rate carries its `source`.
 *
 * Effective dating: every rate of the bundled table is valid from `BUNDLED_TABLE_VALID_FROM`, the date of the table's
 * edition. Where the table schedules a switch after that date (its `before` entries: "this rate applies until D"),
 * the switch becomes a dated change. Later changes are listed in `RATE_CHANGES` (or passed to `createRateTable`),
 * each valid from its own instant; for an instant the rate in force is the latest entry whose `validFrom` is not after
 * it. Before the table's edition date no rate is known.
 *
 * Rates are exact decimals held as integers: `units / 10^scale` (0.0825 → 825 / 10^4), never floats.
 */
/** Date of the bundled table's edition (`sales-tax` 2.23.0): every bundled rate applies from this instant. */
export const BUNDLED_TABLE_VALID_FROM = '2026-05-19T00:00:00.000Z';

/** The `source` of every rate of the bundled table: the package and its pinned version. */
export const BUNDLED_TABLE_SOURCE = 'sales-tax@2.23.0';

/** The `source` of the platform's own list of US states without a state sales tax (`NO_SALES_TAX_RATES`). */
export const NO_SALES_TAX_SOURCE = 'platform:us-states-without-sales-tax';

/** The `source` of a rate change that names none. */
export const RATE_CHANGE_SOURCE = 'platform:rate-change';

/** Why a rate is what it is, when the rate alone does not say: `no_sales_tax`, a state that levies no sales tax (0). */
export const TAX_REASONS = ['no_sales_tax'] as const;
export type TaxReason = (typeof TAX_REASONS)[number];

/**
 * The bundled table (`sales-tax` 2.23.0) as it applies from its edition date, by tax type: each country (`DE`) and
 * state (`US-TX`) with its rate. The table's switches (`before`) all end before the edition date, so none is here.
 */
const bundledRates: Readonly<Record<string, string>> = {
  vat: `AD 0.045 AE 0.05 AL 0.2 AM 0.2 AO 0.14 AR 0.21 AT 0.2 AW 0.125 AZ 0.18 BA 0.17 BB 0.175 BE 0.21 BG 0.2 BH 0.05
BO 0.1494 BR 0.17 BS 0.12 BW 0.14 BY 0.2 CH 0.081 CL 0.19 CN 0.13 CO 0.19 CR 0.13 CW 0.06 CY 0.19 CZ 0.21
DE 0.19 DK 0.25 DO 0.18 DZ 0.19 EC 0.12 EE 0.24 EG 0.14 ER 0.05 ES 0.21 ES-CE -0.21 ES-ML -0.21 FI 0.255
FR 0.2 GB 0.2 GE 0.18 GH 0.15 GR 0.24 GT 0.12 HN 0.15 HR 0.25 HU 0.27 ID 0.11 IE 0.23 IL 0.18 IM 0.2 IS 0.24
IT 0.22 JE 0.05 JO 0.16 JP 0.1 KE 0.16 KR 0.1 KW 0.05 KZ 0.12 LB 0.11 LC 0.125 LI 0.077 LK 0.12 LT 0.21
LU 0.17 LV 0.21 MA 0.2 MC 0.2 MD 0.2 MG 0.2 MK 0.18 MM 0.05 MN 0.1 MT 0.18 MU 0.15 MX 0.16 MY 0.1 NA 0.15
NG 0.075 NI 0.15 NL 0.21 NO 0.25 OM 0.05 PA 0.07 PE 0.18 PG 0.1 PH 0.12 PK 0.17 PL 0.23 PR 0.115 PT 0.23
PY 0.1 QA 0.05 RO 0.21 RS 0.2 RU 0.2 RW 0.18 SA 0.15 SC 0.15 SE 0.25 SI 0.22 SK 0.23 SR 0.15 SV 0.13 TH 0.1
TN 0.19 TR 0.2 TT 0.125 TW 0.05 TZ 0.18 UA 0.2 UG 0.18 US-AL 0.04 US-AR 0.06 US-AZ 0.066 US-CA 0.0825
US-CO 0.029 US-CT 0.06 US-DC 0.06 US-FL 0.06 US-GA 0.04 US-HI 0.04 US-IA 0.06 US-ID 0.06 US-IL 0.0625
US-IN 0.07 US-KS 0.065 US-KY 0.06 US-LA 0.04 US-MA 0.0625 US-MD 0.06 US-ME 0.05 US-MI 0.06 US-MN 0.06875
US-MO 0.04225 US-MS 0.07 US-NC 0.0575 US-ND 0.05 US-NE 0.055 US-NJ 0.07 US-NM 0.05 US-NV 0.0685 US-NY 0.04
US-OH 0.055 US-OK 0.045 US-PA 0.06 US-RI 0.07 US-SC 0.06 US-SD 0.04 US-TN 0.07 US-TX 0.0625 US-UT 0.0595
US-VA 0.05 US-VT 0.06 US-WA 0.065 US-WI 0.05 US-WV 0.06 US-WY 0.04 UY 0.22 UZ 0.12 VE 0.16 VN 0.1 XK 0.18
ZA 0.15 ZM 0.16 ZW 0.15`,
  gst: 'AI 0.13 AU 0.1 CA 0.05 IN 0.18 MV 0.08 NZ 0.15 SG 0.09',
  hst: 'CA-NB 0.1 CA-NL 0.1 CA-NS 0.09 CA-ON 0.08 CA-PE 0.1',
  pst: 'CA-BC 0.07 CA-MB 0.07 CA-SK 0.06',
  qst: 'CA-QC 0.09975',
  igic: 'ES-GC -0.14 ES-TF -0.14',
  none: 'US 0',
};

export type TaxType = 'vat' | 'gst' | 'hst' | 'pst' | 'qst' | 'igic' | 'sales' | 'none';

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
  /** Where the rate comes from: `BUNDLED_TABLE_SOURCE`, `NO_SALES_TAX_SOURCE` or a change's own source. */
  source: string;
  /** Why the rate is what it is, when the rate alone does not say (a state without sales tax); else null. */
  reason: TaxReason | null;
}

/** One dated change: from `validFrom` on, the country (or the country's `state`) is taxed at `rate` (a decimal string). */
export interface RateChange {
  country: string;
  /** The state the change is of; absent or '': the country's own rate. */
  state?: string;
  validFrom: string;
  type: TaxType;
  /** Decimal fraction as a string, e.g. "0.21" for 21 %. */
  rate: string;
  /** Where the rate comes from (the law or the publication); `RATE_CHANGE_SOURCE` when not given. */
  source?: string;
  reason?: TaxReason;
}

/** The `source` of the corrections of the bundled table (`RATE_CHANGES`; docs/tax.md names the law of each). */
export const CORRECTIONS_SOURCE = 'platform:corrections-of-sales-tax@2.23.0';

/**
 * The corrections of the bundled table, by tax type, written as the table is (`DE`, `US-TX`): VAT rates it still gave
 * at its edition though the law had changed them before it (Liechtenstein applies the Swiss 8.1 %; Ecuador, Sri Lanka,
 * Pakistan, the Bahamas, Suriname), and a US state's sales tax it gives above the state's own rate (California's
 * statewide 7.25 %, where the table has 8.25 %). Each applies from the edition date on.
 */
const corrections: Readonly<Partial<Record<TaxType, string>>> = {
  vat: 'LI 0.081 EC 0.15 LK 0.18 PK 0.18 BS 0.1 SR 0.1',
  sales: 'US-CA 0.0725',
};

type TableEntry = [type: TaxType, country: string, state: string, rate: string];

/**
 * The entries of a table written by tax type (`bundledRates`, `corrections`): each country, or state (`US-TX`), and its
 * rate, as `[type, country, state ('' for a country), rate]`.
 */
function tableEntries(table: Readonly<Partial<Record<TaxType, string>>>): TableEntry[] {
  return Object.entries(table).flatMap(([type, entries]) =>
    [...entries!.matchAll(/(\w+)-?(\w*)\s(\S+)/g)].map(([, country, state, rate]): TableEntry => [type as TaxType, country!, state!, rate!]),
  );
}

/**
 * Rate changes after the bundled table's edition, oldest first. Add entries here when a jurisdiction changes its rate.
 * The first are the `corrections` of the bundled table, each with the source `CORRECTIONS_SOURCE`.
 */
export const RATE_CHANGES: readonly RateChange[] = tableEntries(corrections).map(([type, country, state, rate]) => ({
  type,
  country,
  // '' for a country's own rate: a change names a state only when `state` is not empty.
  state,
  rate,
  validFrom: BUNDLED_TABLE_VALID_FROM,
  source: CORRECTIONS_SOURCE,
}));

/** The US states and DC, by USPS code: every one gets an answer (a rate of the table or `no_sales_tax`). */
export const US_STATES: readonly string[] = `AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC
ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY`.split(/\s+/);

/** Canada's provinces and territories: a province without a tax of its own (AB, NT, NU, YT) pays the GST only. */
export const CA_PROVINCES: readonly string[] = 'AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' ');

/** The states a buyer of a country whose tax depends on the state must name from; any other is `state_unknown`. */
export const SUBDIVISIONS: Readonly<Record<string, readonly string[]>> = { US: US_STATES, CA: CA_PROVINCES };

/** The US states without a state sales tax, which the bundled table leaves out. */
export const US_NO_SALES_TAX_STATES: readonly string[] = ['AK', 'DE', 'MT', 'NH', 'OR'];

/** Those states as known rates: 0, reason `no_sales_tax`, from the bundled table's edition date on. */
export const NO_SALES_TAX_RATES: readonly RateChange[] = US_NO_SALES_TAX_STATES.map((state) => ({
  country: 'US',
  state,
  validFrom: BUNDLED_TABLE_VALID_FROM,
  type: 'none',
  rate: '0',
  source: NO_SALES_TAX_SOURCE,
  reason: 'no_sales_tax',
}));

/** The 27 member states of the EU (Greece as `GR`, its ISO code): consumers pay the VAT of their own country. */
export const EU_COUNTRIES: readonly string[] = `AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK`.split(' ');

interface SourceRate {
  type: string;
  rate: number;
  currency?: string;
  before?: Record<string, SourceRate>;
  states?: Record<string, SourceRate>;
}
export type SourceTable = Record<string, SourceRate>;

const TAX_TYPES: ReadonlySet<string> = new Set(['vat', 'gst', 'hst', 'pst', 'qst', 'igic', 'sales', 'none']);

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

/** An exact decimal rate as a percentage, as a receipt names it: "0.0825" → "8.25%", "0.19" → "19%", "0.0" → "0%". */
export function percentText(rate: string): string {
  const r = parseDecimalRate(rate);
  const percent = r.scale >= 2 ? { units: r.units, scale: r.scale - 2 } : { units: r.units * 10n ** BigInt(2 - r.scale), scale: 0 };
  return `${formatDecimalRate(percent).replace(/\.0$/, '')}%`;
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
function timelineOf(source: SourceRate, validFrom: Date, sourceName: string): Timeline {
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
    timeline.push({ type: taxType(seg.rate.type), rate: parseDecimalRate(seg.rate.rate), validFrom: start, source: sourceName, reason: null });
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

/** The bundled table (`bundledRates`) as a source table: one rate for each country and state. */
function bundledSource(): SourceTable {
  const table: SourceTable = {};
  const states: Record<string, Record<string, SourceRate>> = {};
  for (const [type, country, state, rate] of tableEntries(bundledRates)) {
    const sourceRate: SourceRate = { type, rate: Number(rate) };
    if (!state) table[country] = sourceRate;
    else states[country] = { ...states[country], [state]: sourceRate };
  }
  for (const [country, rates] of Object.entries(states)) table[country]!.states = rates;
  return table;
}

/**
 * A table from `source` (the bundled table by default; its rates' `source` is `sourceName`) valid from `validFrom`,
 * plus `changes`.
 *
 * Address rules: a country whose table adds state rates (the US, Canada) needs the state, one of its `SUBDIVISIONS`
 * (another is unknown); in a country without a country-level tax (the US) a state missing from the table is unknown,
 * elsewhere (e.g. Alberta) the country rate applies.
 */
export function createRateTable(options: { source?: SourceTable; sourceName?: string; validFrom?: string; changes?: readonly RateChange[] } = {}): RateTable {
  const source = options.source ?? bundledSource();
  const sourceName = options.sourceName ?? BUNDLED_TABLE_SOURCE;
  const validFrom = new Date(options.validFrom ?? BUNDLED_TABLE_VALID_FROM);
  const countries = new Map<string, CountryRates>();
  for (const [code, rate] of Object.entries(source)) {
    const states = new Map<string, Timeline>();
    for (const [stateCode, stateRate] of Object.entries(rate.states ?? {})) states.set(stateCode, timelineOf(stateRate, validFrom, sourceName));
    countries.set(code, { timeline: timelineOf(rate, validFrom, sourceName), states });
  }
  for (const change of options.changes ?? []) {
    const at = new Date(change.validFrom);
    if (Number.isNaN(at.getTime())) throw new Error(`Invalid change date ${change.validFrom}`);
    const entry: RateEntry = {
      type: taxType(change.type),
      rate: parseDecimalRate(change.rate),
      validFrom: at,
      source: change.source ?? RATE_CHANGE_SOURCE,
      reason: change.reason ?? null,
    };
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
      const listed = SUBDIVISIONS[countryCode];
      if (listed && !listed.includes(stateCode)) return { known: false, reason: 'state_unknown' };
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

/** The bundled table with the states without sales tax (`NO_SALES_TAX_RATES`) and `RATE_CHANGES` applied. */
export const defaultRateTable: RateTable = createRateTable({ changes: [...NO_SALES_TAX_RATES, ...RATE_CHANGES] });
