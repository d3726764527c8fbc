/**
 * Builds the OpenAPI document of each stage from the route table and the API reference's docs (`buildOpenApi(routesFor(stage), apiDocs)`) and writes it
 * gzip-compressed to the git-ignored build directory (`.build/openapi/openapi-<stage>.json.gz`, see
 * `shared/platform/http/openapi-document.ts`), where the openapi route's `assets` name it. The CDK app writes the files
 * before any function is bundled, the local stack when it starts and `npm run invoke` before it runs the openapi
 * function, so a deployment and the local stack serve the same document.
 *
 *   npx tsx infra/openapi-asset.ts     # writes them by hand
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';
import type { Stage } from '../shared/domain/deployments.ts';
import { buildOpenApi } from '../shared/platform/http/openapi.ts';
import { openApiAssetPath, openApiAssets } from '../shared/platform/http/openapi-document.ts';
import { apiDocs } from '../shared/routes/docs/index.ts';
import { routesFor, type RouteDef } from '../shared/routes/index.ts';
import { writeBuildFile } from './build-file.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The stages a document is built for: the openapi function's package carries them all. */
export const openApiStages: readonly Stage[] = ['sandbox', 'live'];

/** The stage's document: the main API's routes of the stage, with their docs. */
export const openApiDocumentOf = (stage: Stage) => buildOpenApi(routesFor(stage), apiDocs);

/** The stage's document, as served: its JSON text. */
export const openApiJson = (stage: Stage): string => JSON.stringify(openApiDocumentOf(stage));

/** The stage's document compressed (gzip; no file name or time in the header, so the same document gives the same bytes). */
export const openApiGzip = (stage: Stage): Buffer => gzipSync(openApiJson(stage), { level: constants.Z_BEST_COMPRESSION });

/**
 * Writes every stage's compressed document under `root` (default: the repository) and returns the absolute paths
 * (a file already right is left alone, another replaced in one rename: `writeBuildFile`).
 */
export function writeOpenApiAssets(root: string = repoRoot): Record<Stage, string> {
  const written = {} as Record<Stage, string>;
  for (const stage of openApiStages) {
    const file = path.join(root, openApiAssetPath(stage));
    writeBuildFile(file, openApiGzip(stage));
    written[stage] = file;
  }
  return written;
}

/** Whether one of `routes` reads the OpenAPI document files (its `assets` name them). */
export const readsOpenApiAssets = (routes: readonly Pick<RouteDef, 'assets'>[]): boolean =>
  routes.some((r) => r.assets?.some((a) => openApiAssets.includes(a)));

/** Writes the documents when one of `routes` reads them (a route table without the openapi route needs none). */
export function writeOpenApiAssetsFor(routes: readonly Pick<RouteDef, 'assets'>[], root?: string): void {
  if (readsOpenApiAssets(routes)) writeOpenApiAssets(root);
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  for (const [stage, file] of Object.entries(writeOpenApiAssets())) console.log(`${stage}: ${path.relative(repoRoot, file)}`);
}
