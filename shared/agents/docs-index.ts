/**
 * The search index of the platform's own documentation (README.md, the docs site's one page), built ahead of time
 * like the OpenAPI document: `infra/docs-index-asset.ts` turns README.md into its sections and a MiniSearch index
 * (gzip JSON under the build directory), which the MCP function carries as its route's asset and loads on the first
 * search (`docs-search.ts`). Pure: no I/O.
 */
import MiniSearch, { type Options } from 'minisearch';

/** Where the built index lives, repository-relative (git-ignored): the MCP route's asset. */
export const DOCS_INDEX_ASSET = '.build/docs/docs-index.json.gz';

/** One section of the documentation: a heading and its text up to the next heading. */
export interface DocsSection {
  readonly id: number;
  /** The heading's anchor, as GitHub (and the docs page) names it. */
  readonly slug: string;
  /** The heading with its parents' below the document's title (`Agent endpoint (MCP) › Scopes and tools`). */
  readonly title: string;
  readonly text: string;
}

/** How the index is built and loaded (the same both times, as MiniSearch requires). */
export const docsIndexOptions: Options<DocsSection> = {
  fields: ['title', 'text'],
  storeFields: ['slug', 'title', 'text'],
};

/** GitHub's anchor of a heading: lowercased, punctuation dropped, spaces as hyphens (`Agent endpoint (MCP)` → `agent-endpoint-mcp`). */
export const headingSlug = (heading: string): string =>
  heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** The sections of a markdown document: one per heading of levels 1 to 4 outside code blocks (text before the first is dropped). */
export function docsSections(markdown: string): DocsSection[] {
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
    // The document's title (level 1) names every section: it heads only its own.
    const title = level === 1 ? text : path.slice(1).filter(Boolean).join(' › ');
    sections.push({ slug: n === 0 ? base : `${base}-${n}`, title, lines: [] });
  }
  return sections.map((s, id) => ({ id, slug: s.slug, title: s.title, text: s.lines.join('\n').trim() }));
}

/** The serialized index of a markdown document. */
export function buildDocsIndex(markdown: string): string {
  const index = new MiniSearch<DocsSection>(docsIndexOptions);
  index.addAll(docsSections(markdown));
  return JSON.stringify(index);
}
