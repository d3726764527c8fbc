import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The runnable `sh` examples of a Markdown document (the docs pages, README.md): every fenced ```sh block, unless
 * the line right above its fence is `<!-- no-run: <reason> -->`, with the HTTP status each `curl` in it is
 * documented to get. A comment starting with a status (`# 201 {…}`), after a command or trailing it (`… # 204`),
 * documents the status of the command's `curl` calls; a curl without one is expected to get a 2xx.
 */

/**
 * The documents whose examples run in README.md's world (`test/docs/e2e/docs-examples.test.ts`): README.md, then the pages
 * its reference sections moved to, in the order the sections came in it, so that an example runs after those it
 * builds on (a custom field before the product that uses it). Their blocks run one by one, with the README fixture's
 * variables and placeholders; every other docs page runs as one script on a fresh merchant. Repository-relative.
 */
export const README_WORLD: readonly string[] = [
  'README.md',
  'docs/reference-merchant-api.md',
  'docs/reference-organization-api.md',
  'docs/reference-catalog.md',
  'docs/reference-cards.md',
  'docs/reference-customers.md',
  'docs/reference-payments.md',
  'docs/reference-webhooks.md',
  'docs/reference-subscriptions.md',
  'docs/reference-balances-payouts.md',
  'docs/reference-checkout.md',
  'docs/reference-invoices.md',
  'docs/reference-dashboard.md',
  'docs/reference-oauth.md',
  'docs/reference-mcp.md',
  'docs/performance.md',
  'docs/deploying.md',
  'docs/development.md',
];

/** Every Markdown document with examples, repository-relative: README.md and each `.md` under `docs/` (the design notes of `docs/design/` too), by path. */
export function markdownDocuments(repoRoot: string): string[] {
  const docs = readdirSync(path.join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f.split(path.sep).join('/')}`)
    .sort();
  return ['README.md', ...docs];
}

export interface ShExample {
  /** The document's line of the opening fence (1-based). */
  readonly line: number;
  /** The heading the block is under (for messages). */
  readonly section: string;
  readonly source: string;
  /** One entry per `curl` call, in the order the script makes them: the documented status, or null (any 2xx). */
  readonly statuses: ReadonlyArray<number | null>;
}

export interface ShBlocks {
  readonly run: ShExample[];
  /** Blocks marked not to run, with the reason given. */
  readonly skipped: Array<{ line: number; reason: string }>;
}

const NO_RUN = /^<!--\s*no-run:\s*(.+?)\s*-->\s*$/;
const STATUS_COMMENT = /(?:^|\s)#\s*([1-5]\d\d)\b/;

/** The logical commands of a script (continuation lines joined), each with the comment lines that follow it. */
function commands(source: string): Array<{ text: string; after: string[] }> {
  const out: Array<{ text: string; after: string[] }> = [];
  let pending = '';
  for (const raw of source.split('\n')) {
    const line = raw.trimEnd();
    if (!pending && /^\s*#/.test(line)) {
      out.at(-1)?.after.push(line.trim());
      continue;
    }
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const text = pending + line;
    pending = '';
    if (text.trim()) out.push({ text, after: [] });
  }
  return out;
}

/** How many `curl` calls a command makes (a word `curl` outside its trailing comment and outside quotes of JSON). */
const curlCalls = (command: string): number => (codeOf(command).match(/(?:^|[\s|;&($])curl\s/g) ?? []).length;

/** A command without its trailing comment (a `#` after whitespace, outside quotes). */
function codeOf(command: string): string {
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(command[i - 1]!))) return command.slice(0, i);
  }
  return command;
}

/** The statuses a script's curl calls are documented to get, in order. */
export function documentedStatuses(source: string): Array<number | null> {
  const statuses: Array<number | null> = [];
  for (const { text, after } of commands(source)) {
    const n = curlCalls(text);
    if (!n) continue;
    const trailing = text.slice(codeOf(text).length);
    const documented = STATUS_COMMENT.exec(trailing) ?? (after[0] ? STATUS_COMMENT.exec(after[0]) : null);
    for (let i = 0; i < n; i++) statuses.push(documented && i === n - 1 ? Number(documented[1]) : null);
  }
  return statuses;
}

/** The `sh` blocks of a Markdown document: those to run, and those marked `no-run`. */
export function shBlocks(markdown: string): ShBlocks {
  const lines = markdown.split('\n');
  const run: ShExample[] = [];
  const skipped: Array<{ line: number; reason: string }> = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^#{1,6}\s+(.+)$/.exec(line);
    if (heading) section = heading[1]!;
    const fence = /^(`{3,}|~{3,})\s*(\w*)/.exec(line);
    if (!fence) continue;
    const close = lines.findIndex((l, j) => j > i && l.trim() === fence[1]);
    const end = close === -1 ? lines.length : close;
    if (fence[2] === 'sh') {
      const source = lines.slice(i + 1, end).join('\n');
      const marker = NO_RUN.exec(lines[i - 1] ?? '');
      if (marker) skipped.push({ line: i + 1, reason: marker[1]! });
      else run.push({ line: i + 1, section, source, statuses: documentedStatuses(source) });
    }
    i = end;
  }
  return { run, skipped };
}

/**
 * The bash prelude of a run: `curl` records each call's status (one line per call in `$MOR_CURL_LOG`) and prints
 * the body as curl would; `npm` runs in the repository (so `npm run -s admin -- …` works from the scratch folder).
 * `npm run -s <script> [-- <args>]` of one of `scripts` (package.json's) runs that script as npm does, with `sh -c`,
 * the arguments after `--` appended, from the repository with its `node_modules/.bin` first on the PATH, without
 * starting npm itself (a fifth of a second of CPU a call); any other `npm` command is npm's. Each `curl` call starts
 * curl and `cat` only: its body goes to a file of the subshell it runs in (`$BASHPID`) next to the log.
 */
export function shPrelude(scripts: Readonly<Record<string, string>>): string {
  const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
  const table = Object.entries(scripts)
    .map(([name, command]) => `[${quoted(name)}]=${quoted(command)}`)
    .join(' ');
  return `set -euo pipefail
curl() {
  local status output= arg
  for arg in "$@"; do if [[ $arg == -o || $arg == --output ]]; then output=1; fi; done
  if [[ $output ]]; then
    status=$(command curl -sS -w '%{http_code}' "$@")
  else
    local body="$MOR_CURL_LOG.body.$BASHPID"
    : > "$body"
    status=$(command curl -sS -o "$body" -w '%{http_code}' "$@")
    cat "$body"
  fi
  echo "$status" >> "$MOR_CURL_LOG"
}
declare -A MOR_NPM_SCRIPTS=(${table})
npm() {
  if [[ $# -ge 3 && $1 == run && $2 == -s && -n $3 && -n \${MOR_NPM_SCRIPTS[$3]+known} && ( $# -eq 3 || $4 == -- ) ]]; then
    local script=\${MOR_NPM_SCRIPTS[$3]}
    shift 3
    if (($#)); then shift; fi
    (cd "$MOR_REPO" && PATH="$MOR_REPO/node_modules/.bin:$PATH" sh -c "$script \\"\\$@\\"" npm "$@")
  else
    (cd "$MOR_REPO" && command npm "$@")
  fi
}
`;
}

/** Every fenced shell block of a Markdown document (```sh, ```bash, ```shell, ```zsh), run or not. */
export function shellBlocks(markdown: string): Array<{ line: number; source: string }> {
  const lines = markdown.split('\n');
  const blocks: Array<{ line: number; source: string }> = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(`{3,}|~{3,})\s*(\w*)/.exec(lines[i]!);
    if (!fence) continue;
    const close = lines.findIndex((l, j) => j > i && l.trim() === fence[1]);
    const end = close === -1 ? lines.length : close;
    if (['sh', 'bash', 'shell', 'zsh'].includes(fence[2]!)) blocks.push({ line: i + 1, source: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

/**
 * The `<placeholder>`s a shell script holds where the shell reads them: a `<`, a word and a `>` (`<merchantId>`)
 * outside quotes, comments and here-documents, which bash takes as redirections (`bash: merchantId: No such file or
 * directory`). Each with its line of the script (1-based).
 */
export function unquotedPlaceholders(source: string): Array<{ line: number; placeholder: string }> {
  const found: Array<{ line: number; placeholder: string }> = [];
  const lines = source.split('\n');
  // The open quotes and command substitutions, innermost last: ' " ( (a `$(`) ` (a backquoted command).
  const open: string[] = [];
  const heredocs: Array<{ word: string; tabs: boolean }> = [];
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      const inner = open.at(-1);
      if (inner === "'") {
        if (c === "'") open.pop();
        continue;
      }
      if (c === '\\') {
        i++;
        continue;
      }
      if (inner === '"') {
        if (c === '"') open.pop();
        else if (line.startsWith('$(', i)) {
          open.push('(');
          i++;
        } else if (c === '`') open.push('`');
        continue;
      }
      // Unquoted (at the top, or inside a command substitution).
      if (c === "'" || c === '"') open.push(c);
      else if (line.startsWith('$(', i)) {
        open.push('(');
        i++;
      } else if (c === '(' && inner === '(') open.push('(');
      else if (c === ')' && inner === '(') open.pop();
      else if (c === '`') {
        if (inner === '`') open.pop();
        else open.push('`');
      } else if (c === '#' && (i === 0 || /[\s;|&(]/.test(line[i - 1]!))) break;
      else if (line.startsWith('<<', i)) {
        const doc = /^<<(-?)\s*(['"]?)([A-Za-z_]\w*)\2/.exec(line.slice(i));
        if (doc) {
          heredocs.push({ word: doc[3]!, tabs: doc[1] === '-' });
          i += doc[0].length - 1;
        } else i += line.startsWith('<<<', i) ? 2 : 1;
      } else if (c === '<') {
        const placeholder = /^<[A-Za-z_][\w.-]*>/.exec(line.slice(i));
        if (placeholder) found.push({ line: n + 1, placeholder: placeholder[0] });
      }
    }
    // Here-documents begun on this line: their bodies are data, up to each one's closing word.
    for (const doc of heredocs.splice(0)) {
      while (n + 1 < lines.length && (doc.tabs ? lines[n + 1]!.replace(/^\t+/, '') : lines[n + 1]) !== doc.word) n++;
      n++;
    }
  }
  return found;
}
