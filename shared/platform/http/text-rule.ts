/**
 * The text rule of every request: no string of a JSON body or of the query string (names included) holds a
 * control character other than tab and newline (U+0000–U+0008, U+000B–U+001F, U+007F: carriage return and NUL
 * too), or half of a UTF-16 surrogate pair without its other half. Such text would otherwise reach invoices,
 * PDFs, e-mails and logs, and a lone surrogate has no UTF-8 form: it becomes U+FFFD when stored or hashed, so two
 * different strings (two idempotency keys, say) would become one. Also the depth rule: nothing nested deeper than
 * `MAX_DEPTH`. Pure: no I/O.
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
 * The deepest nesting a JSON body, a query or an MCP tool's arguments may have: a value inside 64 objects or arrays
 * is taken, one inside 65 is refused before anything else reads it. No request of the platform needs more, and a
 * walk of an unbounded depth (valibot's, a handler's) would overflow the stack: a 500 instead of a 400.
 */
export const MAX_DEPTH = 64;

/** Whether `value` has objects or arrays nested more than `max` deep (`{}` and `[]` are depth 1, a scalar 0); iterative, so any depth is measured. */
export function nestedDeeperThan(value: unknown, max: number = MAX_DEPTH): boolean {
  const stack: Array<{ node: unknown; depth: number }> = [{ node: value, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { node, depth } = next;
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > max) return true;
    for (const item of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof item === 'object' && item !== null) stack.push({ node: item, depth: depth + 1 });
    }
  }
  return false;
}

/**
 * Every string of `value` (a parsed JSON body, or the query parameters) that breaks the text rule, names of
 * fields included, first ones first, at most `MAX_TEXT_ISSUES`. A value is named by its path
 * (`must not contain …`); a name that breaks the rule by the path of the object that holds it (`has a field name
 * with …`, or `query parameter name` for the query). The text itself is never repeated. The walk keeps its own
 * stack, so no depth of nesting overflows the call stack.
 */
export function textIssues(value: unknown, where: 'body' | 'query' = 'body'): TextIssue[] {
  const issues: TextIssue[] = [];
  const name = where === 'query' ? 'query parameter name' : 'field name';
  const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  // What is left to visit, the next on top: a value at its path, or an issue already found (a field name that breaks
  // the rule) to name when its turn comes. An object's or array's parts are pushed last first, so they are named in
  // document order, as a recursive walk would name them.
  const stack: Array<{ node: unknown; path: string } | { issue: TextIssue }> = [{ node: value, path: '' }];
  for (let next = stack.pop(); next && issues.length < MAX_TEXT_ISSUES; next = stack.pop()) {
    if ('issue' in next) {
      issues.push(next.issue);
      continue;
    }
    const { node, path } = next;
    if (typeof node === 'string') {
      const problem = textProblem(node);
      if (problem) issues.push({ path, message: `must not contain ${problem}` });
    } else if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ node: node[i], path: join(path, i) });
    } else if (typeof node === 'object' && node !== null) {
      const entries = Object.entries(node);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const problem = textProblem(key);
        stack.push(problem ? { issue: { path, message: `has a ${name} with ${problem}` } } : { node: item, path: join(path, key) });
      }
    }
  }
  return issues;
}
