/**
 * The `search_payments_ai_docs` tool's search: the best sections of the platform's documentation for a query, with
 * an excerpt around what matched and a link to the section (`/docs/<page>#<anchor>`). The index is built ahead of time (`docs-index.ts`) and
 * loaded once per container, on the first search.
 */
import { gunzipSync } from 'node:zlib';
import MiniSearch from 'minisearch';
import { readBuildAsset } from '../platform/build-assets.ts';
import { docsUrl } from '../platform/http/docs-links.ts';
import { DOCS_INDEX_ASSET, docsIndexOptions, type DocsSection } from '../platform/docs-index.ts';

let index: MiniSearch<DocsSection> | undefined;

const loaded = (): MiniSearch<DocsSection> =>
  (index ??= MiniSearch.loadJSON<DocsSection>(
    gunzipSync(
      readBuildAsset(DOCS_INDEX_ASSET, 'documentation search index', 'the CDK app and the local stack write it, or run `npx tsx infra/docs-index-asset.ts`'),
    ).toString('utf8'),
    docsIndexOptions,
  ));

/** How many characters an excerpt has, about. */
const EXCERPT_LENGTH = 320;

/** About `EXCERPT_LENGTH` characters of `text` around the first of `terms` it holds, on word boundaries, as plain text. */
export function excerptOf(text: string, terms: readonly string[]): string {
  const plain = text
    .replace(/```[^\n]*\n?/g, '')
    .replace(/[`*|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const lower = plain.toLowerCase();
  const at = Math.min(...terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0), plain.length);
  let start = at >= plain.length ? 0 : Math.max(0, at - EXCERPT_LENGTH / 3);
  if (start > 0) start = plain.indexOf(' ', start) + 1 || start;
  let end = Math.min(plain.length, start + EXCERPT_LENGTH);
  if (end < plain.length) end = plain.lastIndexOf(' ', end) > start ? plain.lastIndexOf(' ', end) : end;
  return `${start > 0 ? '…' : ''}${plain.slice(start, end)}${end < plain.length ? '…' : ''}`;
}

/** The `limit` best sections for `query`: title, excerpt, link and score, best first. */
export function searchDocs(query: string, limit: number) {
  return loaded()
    .search(query, { prefix: true, fuzzy: 0.2, boost: { title: 2 } })
    .slice(0, limit)
    .map((hit) => ({
      title: hit.title as string,
      excerpt: excerptOf(hit.text as string, hit.terms),
      link: docsUrl(hit.page as string, hit.slug as string),
      score: Math.round(hit.score * 100) / 100,
    }));
}
