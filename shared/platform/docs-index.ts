/**
 * The search index of the platform's own documentation (the docs site's pages, `docs/*.md`), built ahead of time
 * like the OpenAPI document: `infra/docs-index-asset.ts` turns the pages into their sections and a MiniSearch index
 * (gzip JSON under the build directory), which the MCP function carries as its route's asset and loads on the first
 * search (`shared/agents/docs-search.ts`). Each section keeps its page and its heading's anchor, the same anchor the docs site
 * renders (`infra/docs-site-asset.ts` uses `headingSlug` too), so a search result links into the page. Pure: no I/O.
 */
import MiniSearch, { type Options } from 'minisearch';

/** Where the built index lives, repository-relative (git-ignored): the MCP route's asset. */
export const DOCS_INDEX_ASSET = '.build/docs/docs-index.json.gz';

/** One section of the documentation: a heading and its text up to the next heading. */
export interface DocsSection {
  readonly id: number;
  /** The page it is on: its Markdown file's name without `.md` (`mcp` for `docs/mcp.md`). */
  readonly page: string;
  /** The heading's anchor, as GitHub (and the docs site) names it. */
  readonly slug: string;
  /** The page's title, then the heading with its parents' below it (`MCP › MCP errors`); the title alone for the page's own heading. */
  readonly title: string;
  readonly text: string;
}

/** A page of the documentation: its name (the file's, without `.md`) and its Markdown. */
export interface DocsSource {
  readonly page: string;
  readonly markdown: string;
}

/** How the index is built and loaded (the same both times, as MiniSearch requires). */
export const docsIndexOptions: Options<DocsSection> = {
  fields: ['title', 'text'],
  storeFields: ['page', 'slug', 'title', 'text'],
};

/** GitHub's anchor of a heading: lowercased, punctuation dropped, spaces as hyphens (`Agent endpoint (MCP)` → `agent-endpoint-mcp`). */
export const headingSlug = (heading: string): string =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/**
 * The sections of a page: one per heading of levels 1 to 4 outside code blocks (text before the first is dropped),
 * numbered from `firstId`.
 */
export function docsSections({ page, markdown }: DocsSource, firstId = 0): DocsSection[] {
  const sections: Array<{ slug: string; title: string; lines: string[] }> = [];
  const path: string[] = [];
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^(#{1,4})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) {
      sections.at(-1)?.lines.push(line);
      continue;
    }
    const level = heading[1]!.length;
    const text = heading[2]!.replace(/`/g, '');
    path.length = level - 1;
    path[level - 1] = text;
    const base = headingSlug(heading[2]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    // The page's title (level 1) comes first in every section's title.
    const title = path.filter(Boolean).join(' › ');
    sections.push({ slug: n === 0 ? base : `${base}-${n}`, title, lines: [] });
  }
  return sections.map((s, i) => ({ id: firstId + i, page, slug: s.slug, title: s.title, text: s.lines.join('\n').trim() }));
}

/** The serialized index of the documentation's pages. */
export function buildDocsIndex(pages: readonly DocsSource[]): string {
  const index = new MiniSearch<DocsSection>(docsIndexOptions);
  let next = 0;
  for (const source of pages) {
    const sections = docsSections(source, next);
    index.addAll(sections);
    next += sections.length;
  }
  return JSON.stringify(index);
}
