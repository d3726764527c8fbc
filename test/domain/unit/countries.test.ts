import { describe, expect, it } from 'vitest';
import { countryCodes } from '../../../shared/domain/countries.ts';

/** ISO 3166-1 codes set aside for users (AA, QM–QZ, XA–XZ, ZZ): never a country. */
const userAssigned = /^(AA|Q[M-Z]|X[A-Z]|ZZ)$/;
/** "Exceptionally reserved" codes: CLDR names them (the EU, the UN, Ascension, …) but ISO assigns them to no country. */
const exceptionallyReserved = new Set(['AC', 'CP', 'CQ', 'DG', 'EA', 'EU', 'EZ', 'IC', 'TA', 'UN']);

/** The country codes as the runtime's CLDR data gives them. */
function cldrCountryCodes(): string[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const codes: string[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (!names.of(code) || userAssigned.test(code) || exceptionallyReserved.has(code)) continue;
      if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      codes.push(code);
    }
  }
  return codes;
}

describe('the country codes', () => {
  it('are the ISO 3166-1 alpha-2 countries of the CLDR data, in order, each once', () => {
    expect(countryCodes).toEqual(cldrCountryCodes());
    expect(new Set(countryCodes).size).toBe(249);
  });

  it('include current codes and leave out deprecated, reserved and user-assigned ones', () => {
    for (const code of ['US', 'GB', 'DE', 'SS', 'BQ', 'CW', 'SX', 'ZW']) expect(countryCodes).toContain(code);
    for (const code of ['UK', 'ZR', 'EU', 'UN', 'AA', 'ZZ', 'QZ', 'XA']) expect(countryCodes).not.toContain(code);
  });
});
