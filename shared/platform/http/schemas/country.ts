/**
 * A country, as every face takes it: apart from the other schemas, so an item or schema that names a country carries
 * only this rule and the code list.
 */
import * as v from 'valibot';
import { countryCodes } from '../../../domain/countries.ts';

const countrySet: ReadonlySet<string> = new Set(countryCodes);

/** Two-letter uppercase ISO 3166-1 alpha-2 code of a country. */
export const country = v.pipe(
  v.string('must be a country code'),
  v.regex(/^[A-Z]{2}$/, 'must be a two-letter uppercase ISO 3166-1 alpha-2 code such as US'),
  v.check((c) => countrySet.has(c), 'is not an ISO 3166-1 alpha-2 country code'),
);
