/**
 * The text rule of every request: no string of a JSON body or of the query string (names included) holds a
 * control character other than tab and newline (U+0000–U+0008, U+000B–U+001F, U+007F: carriage return and NUL
 * too), or half of a UTF-16 surrogate pair without its other half. Such text would otherwise reach invoices,
 * PDFs, e-mails and logs, and a lone surrogate has no UTF-8 form: it becomes U+FFFD when stored or hashed, so two
 * different strings (two idempotency keys, say) would become one. Pure: no I/O.
 */

/** Control characters refused: C0 except tab (U+0009) and newline (U+000A), and DEL. */
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/;
/** A surrogate code unit not paired (in `u` mode a pair is one code point, so only a lone half matches). */
const LONE_SURROGATE = /\p{Cs}/u;

/** At most this many strings are named in one refusal (a large body may hold many). */
export const MAX_TEXT_ISSUES = 10;

export interface TextIssue {
  /** Dot path of the string (`lines.0.description`), as the validation issues name fields; `''` for the top. */
  readonly path: string;
  readonly message: string;
}

/** What `text` holds that the rule refuses (`control characters other than tab and newline`), or null. */
export function textProblem(text: string): string | null {
  if (CONTROL.test(text)) return 'control characters other than tab and newline';
  if (LONE_SURROGATE.test(text)) return 'an unpaired UTF-16 surrogate';
  return null;
}

/**
 * Every string of `value` (a parsed JSON body, or the query parameters) that breaks the text rule, names of
 * fields included, first ones first, at most `MAX_TEXT_ISSUES`. A value is named by its path
 * (`must not contain …`); a name that breaks the rule by the path of the object that holds it (`has a field name
 * with …`, or `query parameter name` for the query). The text itself is never repeated.
 */
export function textIssues(value: unknown, where: 'body' | 'query' = 'body'): TextIssue[] {
  const issues: TextIssue[] = [];
  const name = where === 'query' ? 'query parameter name' : 'field name';
  const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  const walk = (node: unknown, path: string): void => {
    if (typeof node === 'string') {
      const problem = textProblem(node);
      if (problem) issues.push({ path, message: `must not contain ${problem}` });
    } else if (Array.isArray(node)) {
      for (let i = 0; i < node.length && issues.length < MAX_TEXT_ISSUES; i++) walk(node[i], join(path, i));
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, item] of Object.entries(node)) {
        if (issues.length >= MAX_TEXT_ISSUES) return;
        const problem = textProblem(key);
        if (problem) issues.push({ path, message: `has a ${name} with ${problem}` });
        else walk(item, join(path, key));
      }
    }
  };
  walk(value, '');
  return issues;
}
