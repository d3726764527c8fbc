/**
 * The docs site's pages as the build reads them: every `docs/*.md` of the repository, named by its file (`mcp.md` →
 * `mcp`), in the navigation's order: the front page (`index.md`) first, then the pages in the order its links name
 * them, then any other page by name. The docs site (`docs-site-asset.ts`) and the docs search index
 * (`docs-index-asset.ts`) are both built from this list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DocsSource } from '../shared/platform/docs-index.ts';
import { isDocsPageName } from '../shared/docs/index.ts';
import { DOCS_INDEX_PAGE } from '../shared/platform/http/docs-links.ts';

/** The pages' folder, repository-relative. */
export const DOCS_DIR = 'docs';

/** The pages another page's Markdown links to (`[x](orders.md)`, `[x](orders.md#refunds)`), in order, each once. */
export const linkedPages = (markdown: string): string[] => [...new Set([...markdown.matchAll(/\]\(([a-z0-9-]+)\.md(?:#[^)\s]*)?\)/g)].map((m) => m[1]!))];

/** Every page under `root` (default: the repository), in the navigation's order. A file whose name cannot name a page fails the build. */
export function readDocsPages(root: string): DocsSource[] {
  const dir = path.join(root, DOCS_DIR);
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -'.md'.length));
  for (const name of names) {
    if (name !== DOCS_INDEX_PAGE && !isDocsPageName(name)) {
      throw new Error(`${DOCS_DIR}/${name}.md: a page's file name is lowercase words joined by "-" (at most 64 characters), and not api or assets`);
    }
  }
  if (!names.includes(DOCS_INDEX_PAGE)) throw new Error(`${DOCS_DIR}/${DOCS_INDEX_PAGE}.md is missing: it is the docs site's front page`);
  const markdownOf = (name: string) => readFileSync(path.join(dir, `${name}.md`), 'utf8');
  const linked = linkedPages(markdownOf(DOCS_INDEX_PAGE)).filter((name) => name !== DOCS_INDEX_PAGE && names.includes(name));
  const rest = names.filter((name) => name !== DOCS_INDEX_PAGE && !linked.includes(name)).sort();
  return [DOCS_INDEX_PAGE, ...linked, ...rest].map((page) => ({ page, markdown: markdownOf(page) }));
}
