/**
 * Building blocks of the organization face's schemas: the `{type:"object", data}` and
 * `{type:"list", totalCount, paginationMeta, data}` envelopes, the list query (`limit` 0..100 default 20,
 * `offset` ≥ 0, `sortDirection` asc|desc), timestamps in queries, and major-unit amounts checked against
 * their currency's ISO 4217 exponent.
 */
import * as v from 'valibot';
import { currencyCodes, toMinorUnits } from '../../../domain/money.ts';
import { isCalendarDate } from '../../../domain/time.ts';
import { named } from './named.ts';

/** `{type:"object", data}`, registered under `name` in the OpenAPI document. */
export const objectEnvelope = <S extends v.GenericSchema>(name: string, data: S) => named(name, v.strictObject({ type: v.literal('object'), data }));

/** `{type:"list", totalCount, paginationMeta:{limit, offset}, data:[…]}`, registered under `name`. */
export const listEnvelope = <S extends v.GenericSchema>(name: string, item: S) =>
  named(
    name,
    v.strictObject({
      type: v.literal('list'),
      totalCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
      paginationMeta: v.strictObject({ limit: v.number(), offset: v.number() }),
      data: v.array(item),
    }),
  );

/** A whole number from the query string, within [min, max] (the documents describe it as that integer). */
export const queryInt = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, 'must be a whole number'),
    // The documents describe it as the integer it stands for (shared/platform/http/json-schema.ts).
    v.metadata({ queryInteger: { minimum: min, maximum: max } }),
    v.toNumber(),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

/**
 * An ISO 8601 date-time a request gives (its body, its query string), on a date that exists, normalised to
 * `toISOString()` form (so it compares as stored).
 */
export const instantInput = v.pipe(
  v.string('must be a string'),
  v.isoTimestamp('must be an ISO 8601 date-time'),
  v.check(isCalendarDate, 'must be a date that exists'),
  v.transform((s) => new Date(s).toISOString()),
  // An offset can carry a year-9999 or year-0000 time into a year of UTC that is not four digits (+010000-…).
  v.regex(/^\d{4}-/, 'must be a date-time of the years 0000 to 9999 in UTC'),
);

/** `true` or `false` in a query string. */
export const queryBoolean = v.pipe(
  v.picklist(['true', 'false'], 'must be true or false'),
  v.transform((s) => s === 'true'),
);

/**
 * A list in a query string: comma-separated (API Gateway joins a repeated parameter's values with commas, so
 * `x=a&x=b` and `x=a,b` are the same), without repeats, 1 to `max` values, each checked by `item`.
 */
export const queryList = <S extends v.GenericSchema<string, string>>(item: S, max: number, what?: string) =>
  v.pipe(
    v.string(),
    v.description(`${what ?? 'values'}: comma-separated, or the parameter repeated`),
    v.transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    ]),
    v.minLength(1, 'must name at least one value'),
    v.maxLength(max, `must name at most ${max} values`),
    v.array(item),
  );

/** `YYYY-MM-DD`, a real calendar date between 1900-01-01 and today (dates of birth). */
export const dateOfBirth = v.pipe(
  v.string(),
  v.isoDate('must be a date YYYY-MM-DD'),
  v.check((d) => {
    const t = Date.parse(`${d}T00:00:00Z`);
    return Number.isFinite(t) && new Date(t).toISOString().startsWith(d) && d >= '1900-01-01' && t <= Date.now();
  }, 'must be a real date between 1900-01-01 and today'),
);

export const sortDirection = v.picklist(['asc', 'desc'], 'must be asc or desc');

/** The paging fields of every list query; spread into a `v.strictObject`. */
export const pagingQuery = {
  limit: v.optional(queryInt(0, 100), '20'),
  offset: v.optional(queryInt(0, 999_999_999), '0'),
  sortDirection: v.optional(sortDirection, 'desc'),
};

/** Three-letter uppercase ISO 4217 code the platform knows. */
export const currency = v.picklist(currencyCodes, 'must be an ISO 4217 currency code such as USD');

/** Past it no amount is taken, whatever its currency: its minor units are always a whole number held exactly. */
const MAX_MAJOR_AMOUNT = 1_000_000_000_000;

/**
 * A non-negative major-unit amount of at most `max` (a route's own limit; whether its decimals fit its currency is
 * checked with `amountFitsCurrency`).
 */
export const majorAmountUpTo = (max: number) =>
  v.pipe(v.number('must be a number'), v.finite('must be a finite number'), v.minValue(0, 'must not be negative'), v.maxValue(max, `must be at most ${max}`));

/** A major-unit amount with no limit of its route's (`majorAmountUpTo` of the most any amount may be). */
export const majorAmount = majorAmountUpTo(MAX_MAJOR_AMOUNT);

/**
 * An object-level check that the major-unit amount at `amountKey` has no more decimals than the currency at
 * `currencyKey` allows (USD 2, JPY 0, BHD 3); the issue is reported on the amount's field.
 */
export function amountFitsCurrency<T extends Record<string, unknown>>(amountKey: keyof T & string, currencyKey: keyof T & string) {
  return v.forward<T, v.CheckIssue<T>, [keyof T & string]>(
    v.check<T, string>((o) => {
      const amount = o[amountKey];
      const code = o[currencyKey];
      return typeof amount !== 'number' || typeof code !== 'string' || !currencyCodes.includes(code) || toMinorUnits(amount, code) !== null;
    }, 'has more decimals than its currency allows'),
    [amountKey] as never,
  );
}

/** `from` must not be after `to` (both optional ISO timestamps already normalised). */
export const rangeInOrder = <T extends Record<string, unknown>>(fromKey: keyof T & string, toKey: keyof T & string) =>
  v.forward<T, v.CheckIssue<T>, [keyof T & string]>(
    v.check<T, string>((o) => !o[fromKey] || !o[toKey] || (o[fromKey] as string) <= (o[toKey] as string), `must not be before ${fromKey}`),
    [toKey] as never,
  );

/**
 * The query of the organization face's catalog lists (websites, products): paging, `sortBy` createdAt|updatedAt
 * (default createdAt), `search` (case-insensitive substring), and `updatedFrom`/`updatedTo` (inclusive).
 */
export const catalogListQueryFields = {
  ...pagingQuery,
  sortBy: v.optional(v.picklist(['createdAt', 'updatedAt'], 'must be createdAt or updatedAt'), 'createdAt'),
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxCodePoints(255))),
  updatedFrom: v.optional(instantInput),
  updatedTo: v.optional(instantInput),
};
