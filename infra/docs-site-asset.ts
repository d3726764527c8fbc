/**
 * Builds the docs site (`shared/docs/docs-site.ts`): each page of `docs/*.md` rendered to an HTML fragment with
 * markdown-it, and written as one gzip JSON file to the git-ignored build directory (`.build/docs/docs-site.json.gz`),
 * where the docs pages' routes name it in their `assets`; and Scalar's standalone script, gzip-compressed once here
 * (`.build/docs/scalar-standalone.js.gz`) for the route that serves it from this origin. The CDK app writes them before
 * any function is bundled, the local stack when it starts and `npm run invoke` before it runs a docs function, like
 * the OpenAPI document.
 *
 * The rendering: the Markdown's own HTML is not let through (`html: false`: a page holds no script or style, so the
 * pages keep the dashboard's CSP) and its comments (`<!-- no-run: … -->`) are left out rather than shown as text,
 * headings of levels 1 to 4 get the anchors the docs search index links to (`headingSlug`, repeated anchors
 * numbered the same way), a link to another page (`orders.md#refunds`) becomes its
 * path (`/docs/orders#refunds`), and code blocks stay plain `<pre><code class="language-…">` (no highlighting). A page
 * starts with its one `# Title`; another shape fails the build.
 *
 *   npx tsx infra/docs-site-asset.ts     # writes them by hand
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import markdownIt, { type MarkdownIt } from 'markdown-it';
import { type DocsSource, headingSlug } from '../shared/platform/docs-index.ts';
import { DOCS_SITE_ASSET, SCALAR_SCRIPT_ASSET, type DocsPage, type DocsSite } from '../shared/docs/index.ts';
import { docsPagePath } from '../shared/platform/http/docs-links.ts';
import type { RouteDef } from '../shared/routes/index.ts';
import { writeBuildFile } from './build-file.ts';
import { readDocsPages } from './docs-pages.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Where the files of Scalar's `@scalar/api-reference` tarball the docs site uses are kept, as in the tarball: its
 * package.json and `dist/browser/standalone.js` (`npm run vendor:scalar -- <version>`).
 */
export const scalarVendorDir = path.join(repoRoot, 'vendor', 'scalar-api-reference');

/** Scalar's standalone script (an IIFE that defines `window.Scalar`). */
export const scalarStandalonePath = (): string => path.join(scalarVendorDir, 'dist', 'browser', 'standalone.js');

/** The heading levels that get anchors: those the search index splits sections at. */
const anchoredLevels = new Set(['h1', 'h2', 'h3', 'h4']);

/** A heading's text as the title shows it: links as their text, no code marks. */
const headingText = (source: string): string => source.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');

/** A link's target as the site serves it: `orders.md#refunds` → `/docs/orders#refunds`; other links as they are. */
export function siteHref(href: string): string {
  const page = /^(?:\.\/)?([a-z0-9-]+)\.md(#.*)?$/.exec(href);
  return page ? `${docsPagePath(page[1]!)}${page[2] ?? ''}` : href;
}

/** Where an HTML comment that starts at `from` of `text` ends (just after its `-->`), or -1 when it is not closed. */
function commentEnd(text: string, from: number): number {
  if (!text.startsWith('<!--', from)) return -1;
  const close = text.indexOf('-->', from + 4);
  return close === -1 ? -1 : close + 3;
}

/**
 * HTML comments are notes to the docs' writers and tools (`<!-- no-run: … -->` above an example), not page text:
 * with the Markdown's HTML off they would show as text, so they are dropped. A block of its own (lines from one
 * starting with `<!--` to one ending with `-->`) leaves nothing; a comment within a paragraph's text is left out of
 * it. In code it stays, and an unclosed `<!--` stays text.
 */
function dropComments(md: MarkdownIt): void {
  md.block.ruler.before('html_block', 'html_comment_block', (state, startLine, endLine, silent) => {
    if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
    const start = state.bMarks[startLine]! + state.tShift[startLine]!;
    const end = commentEnd(state.src, start);
    if (end === -1) return false;
    let line = startLine;
    while (line < endLine && state.eMarks[line]! < end) line++;
    if (line === endLine || state.src.slice(end, state.eMarks[line]).trim() !== '') return false;
    if (!silent) state.line = line + 1;
    return true;
  });
  md.inline.ruler.before('html_inline', 'html_comment_inline', (state) => {
    const end = commentEnd(state.src, state.pos);
    if (end === -1 || end > state.posMax) return false;
    state.pos = end;
    return true;
  });
}

function renderer(): MarkdownIt {
  const md = markdownIt({ html: false, linkify: false, typographer: false });
  dropComments(md);
  // Anchors: the same text, rule and numbering as the search index's sections (docsSections).
  md.core.ruler.push('heading_anchors', (state) => {
    const seen = new Map<string, number>();
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open' || !anchoredLevels.has(token.tag)) return;
      const base = headingSlug(state.tokens[i + 1]?.content ?? '');
      const n: number = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      token.attrSet('id', n === 0 ? base : `${base}-${n}`);
    });
  });
  const defaultLink = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const href = token.attrGet('href');
    if (href) token.attrSet('href', siteHref(String(href)));
    return defaultLink(tokens, idx, options, env, self);
  };
  // A code block or table wider than a phone scrolls inside its box, which the keyboard can reach.
  const defaultFence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, options, env, self) => defaultFence(tokens, idx, options, env, self).replace(/^<pre>/, '<pre tabindex="0">');
  const defaultCode = md.renderer.rules.code_block!;
  md.renderer.rules.code_block = (tokens, idx, options, env, self) => defaultCode(tokens, idx, options, env, self).replace(/^<pre>/, '<pre tabindex="0">');
  md.renderer.rules.table_open = () => '<div class="table-wrap" tabindex="0">\n<table>\n';
  md.renderer.rules.table_close = () => '</table>\n</div>\n';
  return md;
}

/** A page rendered: its title (its one `# Title`, which must come first) and its HTML. */
export function renderDocsPage({ page, markdown }: DocsSource, md: MarkdownIt = renderer()): DocsPage {
  const tokens = md.parse(markdown, {});
  const titles = tokens.filter((t: { type: string; tag: string }) => t.type === 'heading_open' && t.tag === 'h1');
  if (tokens[0]?.type !== 'heading_open' || tokens[0].tag !== 'h1' || titles.length !== 1) {
    throw new Error(`docs/${page}.md: a page starts with its title, its one "# Title" heading`);
  }
  return { page, title: headingText(tokens[1]!.content), html: md.renderer.render(tokens, md.options, {}) };
}

/** The whole site from its pages, in their order. */
export const renderDocsSite = (pages: readonly DocsSource[]): DocsSite => {
  const md = renderer();
  return { pages: pages.map((p) => renderDocsPage(p, md)) };
};

const gzip = (bytes: string | Buffer): Buffer => gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION });

/** Writes the rendered site under `root` (default: the repository) and returns its absolute path. */
export function writeDocsSite(root: string = repoRoot): string {
  const file = path.join(root, DOCS_SITE_ASSET);
  writeBuildFile(file, gzip(JSON.stringify(renderDocsSite(readDocsPages(root)))));
  return file;
}

/** Writes Scalar's standalone script, compressed, under `root` and returns its absolute path. */
export function writeScalarScript(root: string = repoRoot): string {
  const file = path.join(root, SCALAR_SCRIPT_ASSET);
  // Without its source map's address: the map is not served.
  const script = readFileSync(scalarStandalonePath(), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  writeBuildFile(file, gzip(script));
  return file;
}

/** Writes what `routes` read of the docs site (their `assets` name it): the rendered pages, Scalar's script. */
export function writeDocsSiteFor(routes: readonly Pick<RouteDef, 'assets'>[], root?: string): void {
  if (routes.some((r) => r.assets?.includes(DOCS_SITE_ASSET))) writeDocsSite(root);
  if (routes.some((r) => r.assets?.includes(SCALAR_SCRIPT_ASSET))) writeScalarScript(root);
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  for (const file of [writeDocsSite(), writeScalarScript()]) console.log(path.relative(repoRoot, file));
}
