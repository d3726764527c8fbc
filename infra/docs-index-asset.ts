/**
 * Builds the documentation's search index (`buildDocsIndex` over the docs site's pages, `docs/*.md`, see
 * `shared/platform/docs-index.ts`) and writes it gzip-compressed to the git-ignored build directory
 * (`.build/docs/docs-index.json.gz`), where the MCP route's `assets` name it. The CDK app writes it before any function
 * is bundled, the local stack when it starts and `npm run invoke` before it runs the MCP function, so a deployment and
 * the local stack search the same text, the text the docs site shows.
 *
 *   npx tsx infra/docs-index-asset.ts     # writes it by hand
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import { buildDocsIndex, DOCS_INDEX_ASSET } from '../shared/platform/docs-index.ts';
import type { RouteDef } from '../shared/routes/index.ts';
import { writeBuildFile } from './build-file.ts';
import { readDocsPages } from './docs-pages.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The compressed index of the repository's docs pages (no file name or time in the gzip header: the same pages give the same bytes). */
export const docsIndexGzip = (root: string = repoRoot): Buffer => gzipSync(buildDocsIndex(readDocsPages(root)), { level: constants.Z_BEST_COMPRESSION });

/** Writes the index under `root` (default: the repository) and returns its absolute path. */
export function writeDocsIndex(root: string = repoRoot): string {
  const file = path.join(root, DOCS_INDEX_ASSET);
  writeBuildFile(file, docsIndexGzip(root));
  return file;
}

/** Writes the index when one of `routes` reads it (its `assets` name it). */
export function writeDocsIndexFor(routes: readonly Pick<RouteDef, 'assets'>[], root?: string): void {
  if (routes.some((r) => r.assets?.includes(DOCS_INDEX_ASSET))) writeDocsIndex(root);
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) console.log(path.relative(repoRoot, writeDocsIndex()));
