import * as v from 'valibot';
import { isCalendarDate } from '../../../domain/time.ts';
import { queryInt } from './organization.ts';

/**
 * Whether an address the HTML form's rule takes (`v.rfcEmail`: RFC 5322's atom characters in the local part, so
 * `o'brien@…`, and an internationalized domain in its `xn--` form) can be delivered on the internet: a dot in its
 * domain and a letter in its last label (not `a@localhost`, not `a@127.0.0.1`), and no empty part around a dot of its
 * local part.
 */
export const deliverableEmail = (address: string): boolean => {
  const at = address.lastIndexOf('@');
  return !/^\.|\.\.|\.$/.test(address.slice(0, at)) && /\.[^.]*[a-z][^.]*$/i.test(address.slice(at + 1));
};

/** An e-mail address as people have them and type them (see `deliverableEmail`); stored and compared lowercased. */
export const email = v.pipe(
  v.string(),
  v.trim(),
  v.maxCodePoints(254),
  v.rfcEmail('must be an e-mail address'),
  v.check(deliverableEmail, 'must be an e-mail address'),
  v.toLowerCase(),
);

/** A public https URL, as merchants give for their website. */
export const httpsUrl = v.pipe(
  v.string(),
  v.trim(),
  v.maxCodePoints(2048),
  v.url('must be a URL'),
  v.check((s) => /^https:\/\//i.test(s), 'must start with https://'),
);

/** Text on one line: no newline or tab (a name's rule, for the forms that check their names by hand too). */
export const ONE_LINE = /^[^\n\t]*$/;

/**
 * A name: trimmed, not empty, at most `max` code points, on one line (no newline or tab inside: a name is shown in
 * e-mail subjects and page headings, where a line break would let it pass for the platform's own words).
 */
export const name = (max: number) =>
  v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(max), v.regex(ONE_LINE, 'must be on one line'));

/** An ISO 8601 timestamp (`2025-01-01T00:00:00.000Z`) on a date that exists. */
export const isoTime = v.pipe(v.string(), v.isoTimestamp(), v.check(isCalendarDate, 'must be a date that exists'));
export const nullableIsoTime = v.nullable(isoTime);
export const uuid = v.pipe(v.string(), v.uuid());

/** A server-rendered page: a whole HTML document. */
export const htmlPage = v.pipe(v.string(), v.startsWith('<!doctype html>'), v.endsWith('</html>\n'));

/** A text asset (a stylesheet, a script). */
export const textAsset = v.pipe(v.string(), v.minLength(1));

/**
 * The paging fields of a `{data, pagination}` list's query: `page` from 1 (default 1) and `limit` 1..100 (default
 * 20); spread into a `v.strictObject`.
 */
export const pageQuery = {
  page: v.optional(queryInt(1, 1_000_000), '1'),
  limit: v.optional(queryInt(1, 100), '20'),
};

/** The query of a `{data, pagination}` list that takes nothing but the page asked for. */
export const pageOnlyQuery = v.strictObject(pageQuery);

/** The `pagination` of a `{data, pagination}` list page (`paginationOf` in shared/platform/http/pagination.ts makes it). */
export const pagination = v.strictObject({
  page: v.pipe(v.number(), v.integer(), v.minValue(1)),
  limit: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)),
  totalCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  totalPages: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/**
 * The query of a page that reads none: a link to a page may carry parameters of its own (a mail's or a campaign's
 * trackers, `?utm_source=…`), which are ignored, their text still held to the text rule. Marked pure and kept last, so
 * a bundle without a page drops it whole.
 */
export const linkQuery = /* @__PURE__ */ v.object({});
