/**
 * What the dashboard's pages take and answer. A page answers a whole HTML document; its forms post
 * `application/x-www-form-urlencoded` bodies whose fields are strings, each bounded here and checked for meaning by
 * the page's handler (which shows the form again with the reason), and every signed-in form carries `csrf_token`.
 */
import * as v from 'valibot';
import { CSRF_FIELD } from '../platform/http/page-guard.ts';

/** A form field: a string of at most `max` characters. */
export const formText = (max = 500) => v.optional(v.pipe(v.string(), v.maxCodePoints(max)));

/** A signed-in page's form: its CSRF token and `fields`. */
export const pageForm = <E extends v.ObjectEntries>(fields: E) => v.object({ [CSRF_FIELD]: v.pipe(v.string(), v.maxCodePoints(100)), ...fields });

/** The query of a page that says what a form just did (`?done=…`). */
export const doneQuery = v.object({ done: formText(40) });
