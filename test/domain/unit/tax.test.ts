import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countryCodes } from '../../../shared/domain/countries.ts';
import { BadRequestError, UnprocessableError } from '../../../shared/domain/errors.ts';
import { checkoutCountryCodes, createTaxPort, refusedCountryCodes, taxPort, type TaxQuoteInput } from '../../../shared/domain/tax.ts';
import {
  BUNDLED_TABLE_SOURCE,
  BUNDLED_TABLE_VALID_FROM,
  CA_PROVINCES,
  CORRECTIONS_SOURCE,
  createRateTable,
  defaultRateTable,
  EU_COUNTRIES,
  formatDecimalRate,
  NO_SALES_TAX_RATES,
  NO_SALES_TAX_SOURCE,
  parseDecimalRate,
  percentText,
  RATE_CHANGES,
  SUBDIVISIONS,
  US_NO_SALES_TAX_STATES,
  US_STATES,
  type SourceTable,
} from '../../../shared/domain/tax-rates.ts';

// The package's entry point loads an online VAT-number checker; the tax modules must never load it.
vi.mock('sales-tax', () => {
  throw new Error('the sales-tax entry point (online VAT check) was loaded');
});
vi.mock('validate-vat', () => {
  throw new Error('the online VAT checker was loaded');
});

const require = createRequire(import.meta.url);
const bundled = require('sales-tax/res/sales_tax_rates.json') as SourceTable;

const NOW = new Date('2026-11-22T12:00:00.000Z');

const quote = (over: Partial<TaxQuoteInput> & Pick<TaxQuoteInput, 'lines'>, port = taxPort) =>
  port.quote({ currency: 'USD', address: { country: 'US', state: 'TX' }, at: NOW, ...over });

/** The thrown DomainError (fails the test when nothing is thrown). */
function refusal(fn: () => unknown): { status: number; code: string; details?: Record<string, unknown> } {
  try {
    fn();
  } catch (e) {
    if (e instanceof UnprocessableError || e instanceof BadRequestError) return { status: e.status, code: e.code, details: e.details };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('rounding per currency exponent (per line, half-even at the minor unit)', () => {
  it('USD (exponent 2), Texas 6.25 %: 8¢ → 0.5¢ → 0, 24¢ → 1.5¢ → 2, 40¢ → 2.5¢ → 2', () => {
    const q = quote({ lines: [{ amountMinor: 8 }, { amountMinor: 24 }, { amountMinor: 40 }] });
    expect(q.rate).toBe('0.0625');
    expect(q.lines.map((l) => l.taxMinor)).toEqual([0, 2, 2]);
    expect(q.taxMinor).toBe(4);
    expect(q.taxableMinor).toBe(72);
    expect(q.totalMinor).toBe(76);
  });

  it('JPY (exponent 0), Japan 10 %: ¥5 → 0, ¥15 → 2, ¥25 → 2, ¥35 → 4', () => {
    const q = quote({ currency: 'JPY', address: { country: 'JP' }, lines: [5, 15, 25, 35].map((amountMinor) => ({ amountMinor })) });
    expect(q.rate).toBe('0.1');
    expect(q.lines.map((l) => l.taxMinor)).toEqual([0, 2, 2, 4]);
    expect(q.taxMinor).toBe(8);
  });

  it('BHD (exponent 3), Bahrain 5 %: 1.010 → 0.0505 → 0.050, 1.030 → 0.0515 → 0.052', () => {
    const q = quote({ currency: 'BHD', address: { country: 'BH' }, lines: [{ amountMinor: 1010 }, { amountMinor: 1030 }] });
    expect(q.rate).toBe('0.05');
    expect(q.lines.map((l) => l.taxMinor)).toEqual([50, 52]);
    expect(q.totalMinor).toBe(1010 + 1030 + 102);
  });

  it('rounds the line (unit amount × quantity), not each unit: ¥5 × 3 at 10 % is ¥2, not 3 × ¥0', () => {
    const q = quote({ currency: 'JPY', address: { country: 'JP' }, lines: [{ amountMinor: 5, quantity: 3 }] });
    expect(q.lines[0]).toEqual({ amountMinor: 5, quantity: 3, taxableMinor: 15, taxMinor: 2 });
  });

  it('has no floating-point drift: $1.50 at Indiana 7 % is exactly 10.5¢ → 10 (the float product is 10.500000000000002)', () => {
    expect(150 * 0.07).toBe(10.500000000000002);
    const q = quote({ address: { country: 'US', state: 'IN' }, lines: [{ amountMinor: 150 }, { amountMinor: 50 }] });
    expect(q.rate).toBe('0.07');
    expect(q.lines.map((l) => l.taxMinor)).toEqual([10, 4]); // 10.5 → 10, 3.5 → 4
  });

  it('keeps large amounts exact', () => {
    const q = quote({ address: { country: 'US', state: 'CA' }, lines: [{ amountMinor: 9_007_199_254, quantity: 1000 }] });
    // 9007199254000 × 0.0725 = 653021945915 exactly.
    expect(q.taxMinor).toBe(653_021_945_915);
  });
});

describe('multi-line orders', () => {
  it('sums rounded line taxes: three 50¢ lines at Germany 19 % are 3 × 10¢ = 30¢ (tax on the 150¢ sum would be 28¢)', () => {
    const q = quote({ currency: 'EUR', address: { country: 'DE' }, lines: [{ amountMinor: 50 }, { amountMinor: 50 }, { amountMinor: 50 }] });
    expect(q.lines.map((l) => l.taxMinor)).toEqual([10, 10, 10]);
    expect(q.taxMinor).toBe(30);
    expect(q.totalMinor).toBe(180);
  });

  it('applies one rate to lines with quantities and reports each line', () => {
    const q = quote({ currency: 'EUR', address: { country: 'FR' }, lines: [{ amountMinor: 1999, quantity: 2 }, { amountMinor: 500 }] });
    expect(q.lines).toEqual([
      { amountMinor: 1999, quantity: 2, taxableMinor: 3998, taxMinor: 800 }, // 799.6 → 800
      { amountMinor: 500, quantity: 1, taxableMinor: 500, taxMinor: 100 },
    ]);
    expect(q).toMatchObject({ taxableMinor: 4498, taxMinor: 900, totalMinor: 5398 });
  });

  it('an empty order has no tax but still needs a known address', () => {
    expect(quote({ currency: 'EUR', address: { country: 'DE' }, lines: [] })).toMatchObject({ taxMinor: 0, totalMinor: 0, lines: [] });
    expect(refusal(() => quote({ address: { country: 'ZZ' }, lines: [] })).code).toBe('checkout.tax_unavailable');
  });
});

describe('jurisdictions', () => {
  it.each([
    ['DE', '0.19'],
    ['FR', '0.2'],
    ['IT', '0.22'],
    ['NL', '0.21'],
    ['EE', '0.24'],
    ['IE', '0.23'],
  ])('EU country %s uses its standard rate %s', (country, rate) => {
    const q = quote({ currency: 'EUR', address: { country }, lines: [{ amountMinor: 10000 }] });
    expect(q.rate).toBe(rate);
    expect(q.rates).toEqual([{ level: 'country', type: 'vat', rate, validFrom: BUNDLED_TABLE_VALID_FROM, source: BUNDLED_TABLE_SOURCE }]);
    expect(q.reason).toBeNull();
    expect(q.jurisdiction).toEqual({ country, state: null });
    expect(q.taxMinor).toBe(Number(rate) * 10000);
  });

  it("every one of the 27 EU countries is taxed at its own country's standard VAT rate, from the bundled table", () => {
    expect(EU_COUNTRIES).toHaveLength(27);
    expect(new Set(EU_COUNTRIES).size).toBe(27);
    for (const country of EU_COUNTRIES) {
      const q = quote({ currency: 'EUR', address: { country }, lines: [{ amountMinor: 10000 }] });
      expect(q.rates, country).toEqual([
        {
          level: 'country',
          type: 'vat',
          rate: formatDecimalRate(parseDecimalRate(bundled[country]!.rate)),
          validFrom: BUNDLED_TABLE_VALID_FROM,
          source: BUNDLED_TABLE_SOURCE,
        },
      ]);
      // Standard EU VAT rates lie between 15 % (the directive's floor) and 27 % (Hungary).
      expect(Number(q.rate), country).toBeGreaterThanOrEqual(0.15);
      expect(Number(q.rate), country).toBeLessThanOrEqual(0.27);
      expect(checkoutCountryCodes, country).toContain(country);
    }
  });

  it('corrects the rates the bundled table still gave at its edition though the law had changed them, each with its source', () => {
    const at = new Date('2026-12-01T00:00:00.000Z');
    const corrected = { LI: '0.081', EC: '0.15', LK: '0.18', PK: '0.18', BS: '0.1', SR: '0.1', 'US-CA': '0.0725' };
    for (const [code, rate] of Object.entries(corrected)) {
      const [country, state = null] = code.split('-') as [string, string?];
      const q = taxPort.quote({ lines: [], currency: 'USD', address: { country, state, postalCode: null }, at });
      expect(q.rate, code).toBe(rate);
      expect(q.rates.at(-1)!.source, code).toBe(CORRECTIONS_SOURCE);
    }
    expect(RATE_CHANGES.map((c) => (c.state ? `${c.country}-${c.state}` : c.country)).sort()).toEqual(Object.keys(corrected).sort());
    // Each correction changes what the table said (one that equals it would be no correction).
    for (const change of RATE_CHANGES) {
      const table = change.state ? bundled[change.country]!.states![change.state]! : bundled[change.country]!;
      expect(table.rate, `${change.country} ${change.state ?? ''}`).not.toBe(Number(change.rate));
    }
  });

  it("taxes California at its 7.25 % statewide rate (the state's own), not the table's 8.25 %, as a state sales tax", () => {
    expect(bundled.US!.states!.CA!.rate).toBe(0.0825);
    const q = quote({ address: { country: 'US', state: 'CA' }, lines: [{ amountMinor: 1000 }] });
    expect(q).toMatchObject({ rate: '0.0725', taxMinor: 72, reason: null, jurisdiction: { country: 'US', state: 'CA' } }); // 72.5 → 72
    expect(q.rates[1]).toEqual({ level: 'state', type: 'sales', rate: '0.0725', validFrom: BUNDLED_TABLE_VALID_FROM, source: CORRECTIONS_SOURCE });
  });

  it('the UK is taxed at its 20 % VAT', () => {
    const q = quote({ currency: 'GBP', address: { country: 'gb' }, lines: [{ amountMinor: 10000 }] });
    expect(q).toMatchObject({ rate: '0.2', taxMinor: 2000, reason: null, jurisdiction: { country: 'GB', state: null } });
    expect(q.rates[0]!.source).toBe(BUNDLED_TABLE_SOURCE);
  });

  it.each([
    ['NY', '0.04', 400, BUNDLED_TABLE_SOURCE],
    ['TX', '0.0625', 625, BUNDLED_TABLE_SOURCE],
    ['CA', '0.0725', 725, CORRECTIONS_SOURCE],
    ['WA', '0.065', 650, BUNDLED_TABLE_SOURCE],
  ])('US state %s uses its base rate %s on top of no federal tax', (state, rate, tax, source) => {
    const q = quote({ address: { country: 'US', state, postalCode: '10001' }, lines: [{ amountMinor: 10000 }] });
    expect(q.rate).toBe(rate);
    expect(q.jurisdiction).toEqual({ country: 'US', state });
    expect(q.rates.map((r) => [r.level, r.type, r.rate, r.source])).toEqual([
      ['country', 'none', '0.0', BUNDLED_TABLE_SOURCE],
      // A state's sales tax, though the package files it with the VAT rates.
      ['state', 'sales', rate, source],
    ]);
    expect(q.reason).toBeNull();
    expect(q.taxMinor).toBe(tax);
  });

  it.each(['OR', 'DE', 'MT', 'NH', 'AK'])('US state %s has no state sales tax: a known 0 with the reason no_sales_tax, not a refusal', (state) => {
    const q = quote({
      address: { country: 'US', state: state.toLowerCase(), postalCode: '97201' },
      lines: [{ amountMinor: 1000 }, { amountMinor: 2500, quantity: 2 }],
    });
    expect(q).toMatchObject({ rate: '0.0', reason: 'no_sales_tax', taxMinor: 0, taxableMinor: 6000, totalMinor: 6000, jurisdiction: { country: 'US', state } });
    expect(q.lines.map((l) => l.taxMinor)).toEqual([0, 0]);
    expect(q.rates).toEqual([
      { level: 'country', type: 'none', rate: '0.0', validFrom: BUNDLED_TABLE_VALID_FROM, source: BUNDLED_TABLE_SOURCE },
      { level: 'state', type: 'none', rate: '0.0', validFrom: BUNDLED_TABLE_VALID_FROM, source: NO_SALES_TAX_SOURCE },
    ]);
  });

  it('adds a Canadian province rate to the federal GST (Quebec: 5 % + 9.975 %)', () => {
    const q = quote({ currency: 'CAD', address: { country: 'CA', state: 'QC' }, lines: [{ amountMinor: 10000 }] });
    expect(q.rate).toBe('0.14975');
    expect(q.rates.map((r) => [r.type, r.rate])).toEqual([
      ['gst', '0.05'],
      ['qst', '0.09975'],
    ]);
    expect(q.taxMinor).toBe(1498); // 1497.5 → 1498 (1497 is odd)
  });

  it('a province without its own tax in the table pays the federal rate only (Alberta: 5 % GST)', () => {
    const q = quote({ currency: 'CAD', address: { country: 'CA', state: 'AB' }, lines: [{ amountMinor: 10000 }] });
    expect(q).toMatchObject({ rate: '0.05', taxMinor: 500, jurisdiction: { country: 'CA', state: null } });
  });

  it('a known 0 % rate is a real 0, not a refusal (Ceuta: Spanish VAT does not apply)', () => {
    const q = quote({ currency: 'EUR', address: { country: 'ES', state: 'CE' }, lines: [{ amountMinor: 10000 }] });
    expect(q).toMatchObject({ rate: '0.0', taxMinor: 0, totalMinor: 10000, jurisdiction: { country: 'ES', state: 'CE' } });
    expect(quote({ currency: 'EUR', address: { country: 'ES' }, lines: [{ amountMinor: 10000 }] }).taxMinor).toBe(2100);
  });

  it('accepts lower-case and padded codes', () => {
    const q = quote({ address: { country: ' us ', state: 'ny' }, lines: [{ amountMinor: 100 }] });
    expect(q.jurisdiction).toEqual({ country: 'US', state: 'NY' });
  });
});

/** The state/province lists of the hosted checkout page (`code name|code name|…`), read from its source. */
function pageRegions(): Record<string, string[]> {
  const source = readFileSync(path.resolve(import.meta.dirname, '../../../shared/checkout/browser/checkout-page.ts'), 'utf8');
  const block = source.slice(source.indexOf('const REGIONS'), source.indexOf('};', source.indexOf('const REGIONS')));
  const regions: Record<string, string[]> = {};
  for (const m of block.matchAll(/\b([A-Z]{2}): \{[^}]*?list:([^}]*)\}/g)) {
    const list = [...m[2]!.matchAll(/'([^']*)'/g)].map((q) => q[1]).join('');
    regions[m[1]!] = list.split('|').map((entry) => entry.slice(0, 2));
  }
  return regions;
}

describe('every jurisdiction the checkout offers gets an answer; every other country is refused and not offered', () => {
  /** The quote of `address`, or the refusal's reason. */
  const answer = (address: TaxQuoteInput['address']) => {
    try {
      return { quote: quote({ currency: 'USD', address, lines: [{ amountMinor: 10000 }] }) };
    } catch (e) {
      if (e instanceof UnprocessableError && e.code === 'checkout.tax_unavailable') return { refused: e.details?.reason };
      throw e;
    }
  };

  it('walks the whole country list: each country is either offered and taxed (every state of the US and Canada), or refused and not offered', () => {
    expect(new Set([...checkoutCountryCodes, ...refusedCountryCodes]).size).toBe(countryCodes.length);
    expect(checkoutCountryCodes.filter((c) => refusedCountryCodes.includes(c))).toEqual([]);
    let taxed = 0;
    for (const country of countryCodes) {
      const states = SUBDIVISIONS[country];
      if (checkoutCountryCodes.includes(country)) {
        for (const state of states ?? [null]) {
          const a = answer({ country, state });
          expect(a.refused, `${country} ${state ?? ''}`).toBeUndefined();
          const q = a.quote!;
          expect(q.rates.length, country).toBeGreaterThan(0);
          for (const r of q.rates)
            expect([BUNDLED_TABLE_SOURCE, NO_SALES_TAX_SOURCE, ...RATE_CHANGES.map((c) => c.source)], `${country} ${state ?? ''}`).toContain(r.source);
          // A 0 here is a state without sales tax, and says so.
          if (q.rate === '0.0') expect(q.reason, `${country} ${state ?? ''}`).toBe('no_sales_tax');
          taxed++;
        }
        // Where the tax depends on the state, the state is needed.
        if (states) expect(answer({ country }).refused, country).toBe('state_required');
      } else {
        expect(answer({ country }).refused, country).toBe('country_not_sold');
        expect(defaultRateTable.countries, country).not.toContain(country);
      }
    }
    expect(taxed).toBe(checkoutCountryCodes.length - 2 + US_STATES.length + CA_PROVINCES.length);
  });

  it('offers the EU, the UK, the US and Canada, and not a country no rate is known for', () => {
    for (const country of [...EU_COUNTRIES, 'GB', 'US', 'CA', 'CH', 'NO', 'AU', 'JP']) expect(checkoutCountryCodes, country).toContain(country);
    for (const country of ['AQ', 'HK', 'GI', 'AX', 'RE']) {
      expect(checkoutCountryCodes, country).not.toContain(country);
      expect(refusedCountryCodes, country).toContain(country);
    }
    expect(checkoutCountryCodes).toHaveLength(127);
  });

  it('every US state and DC gets a rate: 46 from the table (a positive rate), the 5 without sales tax a 0 with its reason', () => {
    expect(US_STATES).toHaveLength(51);
    const zero = US_STATES.filter((state) => answer({ country: 'US', state }).quote!.taxMinor === 0);
    expect(zero.sort()).toEqual([...US_NO_SALES_TAX_STATES].sort());
    for (const state of US_STATES) {
      const q = answer({ country: 'US', state }).quote!;
      expect(q.jurisdiction, state).toEqual({ country: 'US', state });
      expect(q.reason, state).toBe(US_NO_SALES_TAX_STATES.includes(state) ? 'no_sales_tax' : null);
      const corrected = RATE_CHANGES.some((c) => c.country === 'US' && c.state === state);
      expect(q.rates[1]!.source, state).toBe(
        US_NO_SALES_TAX_STATES.includes(state) ? NO_SALES_TAX_SOURCE : corrected ? CORRECTIONS_SOURCE : BUNDLED_TABLE_SOURCE,
      );
    }
  });

  it("the checkout page's state and province lists are exactly the ones the port answers for", () => {
    const regions = pageRegions();
    expect(Object.keys(regions).sort()).toEqual(Object.keys(SUBDIVISIONS).sort());
    for (const [country, states] of Object.entries(SUBDIVISIONS)) expect(regions[country]!.sort(), country).toEqual([...states].sort());
  });
});

describe('no rate known → 422 checkout.tax_unavailable (never a silent 0)', () => {
  it.each([
    ['an unknown country code', { country: 'ZZ' }, 'country_unknown'],
    ['an ISO country missing from the table (not sold to)', { country: 'AQ' }, 'country_not_sold'],
    ['another ISO country missing from the table (not sold to)', { country: 'hk' }, 'country_not_sold'],
    ['a three-letter country code', { country: 'USA', state: 'NY' }, 'country_unknown'],
    ['an empty country', { country: '' }, 'country_unknown'],
    ['a US address without a state', { country: 'US' }, 'state_required'],
    ['a US address with an empty state', { country: 'US', state: '  ' }, 'state_required'],
    ['a made-up US state', { country: 'US', state: 'XX' }, 'state_unknown'],
    ['a US territory given as a state (it is a country of its own)', { country: 'US', state: 'PR' }, 'state_unknown'],
    ['a Canadian address without a province', { country: 'CA', state: null }, 'state_required'],
    ['a made-up Canadian province (never the GST alone)', { country: 'CA', state: 'XX' }, 'state_unknown'],
  ])('%s', (_name, address, reason) => {
    const r = refusal(() => quote({ address, lines: [{ amountMinor: 1000 }] }));
    expect(r).toMatchObject({ status: 422, code: 'checkout.tax_unavailable' });
    expect(r.details).toMatchObject({ reason });
  });

  it('an instant before the rate table', () => {
    const r = refusal(() => quote({ at: new Date('2026-05-18T23:59:59.999Z'), lines: [{ amountMinor: 1000 }] }));
    expect(r).toMatchObject({ status: 422, code: 'checkout.tax_unavailable', details: { reason: 'before_table' } });
    expect(quote({ at: new Date(BUNDLED_TABLE_VALID_FROM), lines: [{ amountMinor: 1000 }] }).taxMinor).toBe(62); // 62.5 → 62
  });
});

describe('invalid input is a 400, not a wrong amount', () => {
  it.each([
    ['a negative amount', { lines: [{ amountMinor: -1 }] }, 'checkout.amount_invalid'],
    ['a fractional amount', { lines: [{ amountMinor: 10.5 }] }, 'checkout.amount_invalid'],
    ['a zero quantity', { lines: [{ amountMinor: 10, quantity: 0 }] }, 'checkout.quantity_invalid'],
    ['a fractional quantity', { lines: [{ amountMinor: 10, quantity: 1.5 }] }, 'checkout.quantity_invalid'],
    ['an unknown currency', { currency: 'XYZ', lines: [{ amountMinor: 10 }] }, 'checkout.currency_invalid'],
    ['an invalid date', { at: new Date('nope'), lines: [{ amountMinor: 10 }] }, 'checkout.tax_date_invalid'],
    ['a line total beyond exact integers', { lines: [{ amountMinor: Number.MAX_SAFE_INTEGER, quantity: 2 }] }, 'checkout.amount_too_large'],
  ])('%s', (_name, over, code) => {
    expect(refusal(() => quote(over as TaxQuoteInput))).toMatchObject({ status: 400, code });
  });
});

describe('effective-dated rates', () => {
  const port = createTaxPort(
    createRateTable({
      changes: [
        { country: 'DE', validFrom: '2027-01-01T00:00:00.000Z', type: 'vat', rate: '0.2' },
        { country: 'US', state: 'TX', validFrom: '2027-03-01T00:00:00.000Z', type: 'vat', rate: '0.07' },
        { country: 'US', state: 'OR', validFrom: '2027-03-01T00:00:00.000Z', type: 'vat', rate: '0' },
      ],
    }),
  );
  const de = (at: string) => quote({ currency: 'EUR', address: { country: 'DE' }, at: new Date(at), lines: [{ amountMinor: 10000 }] }, port);

  it('a country rate change applies only from its date', () => {
    expect(de('2026-12-31T23:59:59.999Z')).toMatchObject({ rate: '0.19', taxMinor: 1900 });
    const after = de('2027-01-01T00:00:00.000Z');
    expect(after).toMatchObject({ rate: '0.2', taxMinor: 2000 });
    expect(after.rates[0]!.validFrom).toBe('2027-01-01T00:00:00.000Z');
  });

  it('a state rate change applies only from its date, and a newly listed 0 % state becomes taxable at 0', () => {
    const tx = (at: string) => quote({ at: new Date(at), lines: [{ amountMinor: 10000 }] }, port).taxMinor;
    expect([tx('2027-02-28T23:59:59.999Z'), tx('2027-03-01T00:00:00.000Z')]).toEqual([625, 700]);
    const or = (at: string) => quote({ address: { country: 'US', state: 'OR' }, at: new Date(at), lines: [{ amountMinor: 10000 }] }, port);
    expect(refusal(() => or('2027-02-28T23:59:59.999Z')).code).toBe('checkout.tax_unavailable');
    expect(or('2027-03-01T00:00:00.000Z')).toMatchObject({ rate: '0.0', taxMinor: 0, reason: null, rates: [{}, { source: 'platform:rate-change' }] });
  });

  it('a state without sales tax that starts levying one is taxed from that date on, with the change as its source', () => {
    const source = 'test: a sales tax for Oregon';
    const p = createTaxPort(
      createRateTable({
        changes: [...NO_SALES_TAX_RATES, { country: 'US', state: 'OR', validFrom: '2027-07-01T00:00:00.000Z', type: 'vat', rate: '0.03', source }],
      }),
    );
    const or = (at: string) => quote({ address: { country: 'US', state: 'OR' }, at: new Date(at), lines: [{ amountMinor: 10000 }] }, p);
    expect(or('2027-06-30T23:59:59.999Z')).toMatchObject({ rate: '0.0', taxMinor: 0, reason: 'no_sales_tax' });
    const after = or('2027-07-01T00:00:00.000Z');
    expect(after).toMatchObject({ rate: '0.03', taxMinor: 300, reason: null });
    expect(after.rates[1]).toEqual({ level: 'state', type: 'sales', rate: '0.03', validFrom: '2027-07-01T00:00:00.000Z', source });
  });

  it("the default table is unchanged by another table's changes", () => {
    expect(quote({ currency: 'EUR', address: { country: 'DE' }, at: new Date('2030-01-01T00:00:00Z'), lines: [{ amountMinor: 10000 }] }).taxMinor).toBe(1900);
  });

  it('a switch the source table schedules after its edition date becomes a dated change', () => {
    const source: SourceTable = {
      XA: {
        type: 'vat',
        rate: 0.2,
        before: { '2027-06-01T00:00:00.000Z': { type: 'vat', rate: 0.1 }, '2020-01-01T00:00:00.000Z': { type: 'vat', rate: 0.05 } },
      },
    };
    const p = createTaxPort(createRateTable({ source, validFrom: '2026-01-01T00:00:00.000Z' }));
    const at = (iso: string) => quote({ currency: 'EUR', address: { country: 'XA' }, at: new Date(iso), lines: [{ amountMinor: 1000 }] }, p);
    expect(refusal(() => at('2025-12-31T23:59:59.999Z')).details).toMatchObject({ reason: 'before_table' });
    expect(at('2026-01-01T00:00:00.000Z')).toMatchObject({ rate: '0.1', taxMinor: 100, rates: [{ validFrom: '2026-01-01T00:00:00.000Z' }] });
    expect(at('2027-06-01T00:00:00.000Z')).toMatchObject({ rate: '0.2', taxMinor: 200, rates: [{ validFrom: '2027-06-01T00:00:00.000Z' }] });
  });

  it('switches the bundled table recorded before its edition date are history: the current rate applies from the edition date', () => {
    // Estonia: 20 % until 2025-06-30, 22 % until 2025-07-01 (table's instants), 24 % after.
    const q = quote({ currency: 'EUR', address: { country: 'EE' }, lines: [{ amountMinor: 10000 }] });
    expect(q.rates).toEqual([{ level: 'country', type: 'vat', rate: '0.24', validFrom: BUNDLED_TABLE_VALID_FROM, source: BUNDLED_TABLE_SOURCE }]);
  });
});

describe('the bundled table', () => {
  it("is the sales-tax package's table as it applies from its edition date: every country and state, each rate", () => {
    const fromPackage = createRateTable({ source: bundled });
    const table = createRateTable();
    expect(table.countries).toEqual(fromPackage.countries);
    const edition = Date.parse(BUNDLED_TABLE_VALID_FROM);
    const instants = [new Date(edition - 1), new Date(edition), NOW, new Date('2100-01-01T00:00:00.000Z')];
    for (const country of fromPackage.countries) {
      expect(table.statesOf(country)).toEqual(fromPackage.statesOf(country));
      for (const state of [null, 'ZZ', ...fromPackage.statesOf(country)]) {
        for (const at of instants) expect(table.lookup(country, state, at)).toEqual(fromPackage.lookup(country, state, at));
      }
    }
  });

  it('covers 128 countries and 46 US jurisdictions (45 states and DC); the platform adds the 5 states without sales tax', () => {
    expect(createRateTable().countries).toHaveLength(128);
    expect(createRateTable().statesOf('US')).toHaveLength(46);
    expect(Object.keys(bundled.US!.states!)).toHaveLength(46);
    // The five are exactly the states the package leaves out: together they are every state and DC.
    for (const state of US_NO_SALES_TAX_STATES) expect(bundled.US!.states![state], state).toBeUndefined();
    expect([...Object.keys(bundled.US!.states!), ...US_NO_SALES_TAX_STATES].sort()).toEqual([...US_STATES].sort());
    expect(defaultRateTable.countries).toHaveLength(128);
    expect(defaultRateTable.statesOf('US')).toEqual([...US_STATES].sort());
  });

  it('every rate is read as an exact decimal equal to the published value', () => {
    for (const entry of Object.values(bundled)) {
      for (const r of [entry, ...Object.values(entry.states ?? {}), ...Object.values(entry.before ?? {})]) {
        const exact = parseDecimalRate(r.rate);
        expect(Number(formatDecimalRate(exact))).toBe(r.rate);
        expect(exact.scale).toBeLessThanOrEqual(6);
      }
    }
  });

  it('parses and prints decimals exactly', () => {
    expect(parseDecimalRate('0.09975')).toEqual({ units: 9975n, scale: 5 });
    expect(parseDecimalRate(-0.21)).toEqual({ units: -21n, scale: 2 });
    expect(formatDecimalRate({ units: 14975n, scale: 5 })).toBe('0.14975');
    expect(formatDecimalRate({ units: 0n, scale: 0 })).toBe('0.0');
    expect(() => parseDecimalRate('1e-7')).toThrow();
  });

  it('names a rate as a percentage exactly, as a receipt shows it', () => {
    expect(percentText('0.19')).toBe('19%');
    expect(percentText('0.0825')).toBe('8.25%');
    expect(percentText('0.09975')).toBe('9.975%');
    expect(percentText('0.2')).toBe('20%');
    expect(percentText('0.0')).toBe('0%');
    expect(percentText('1')).toBe('100%');
  });
});

describe('offline only', () => {
  afterEach(() => vi.restoreAllMocks());

  it('quoting every country and state opens no socket and loads no online VAT checker', async () => {
    const net = require('node:net') as typeof import('node:net');
    const dns = require('node:dns') as typeof import('node:dns');
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const lookup = vi.spyOn(dns, 'lookup');
    // Fresh module instances, so their import graph is loaded under the mocks above (which throw on the entry point).
    vi.resetModules();
    const { createTaxPort: freshPort } = await import('../../../shared/domain/tax.ts');
    const port = freshPort();
    let quoted = 0;
    for (const country of defaultRateTable.countries) {
      const states = defaultRateTable.statesOf(country);
      for (const state of states.length ? states : [null]) {
        try {
          port.quote({ lines: [{ amountMinor: 10000 }], currency: 'EUR', address: { country, state }, at: NOW });
          quoted++;
        } catch (e) {
          expect((e as UnprocessableError).code).toBe('checkout.tax_unavailable');
        }
      }
    }
    expect(quoted).toBeGreaterThan(170);
    expect(connect).not.toHaveBeenCalled();
    expect(lookup).not.toHaveBeenCalled();
    expect(Object.keys(require.cache).filter((p) => /validate-vat|sales-tax[\\/]lib/.test(p))).toEqual([]);
  });
});
