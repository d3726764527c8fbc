/**
 * The OpenAPI document as the `openapi` function serves it: built from the route table ahead of time
 * (`infra/openapi-asset.ts`, run by the CDK app at synth and by the local stack at start), one gzip-compressed
 * JSON file per stage, so the function carries neither the route table's schemas nor the JSON Schema converter.
 *
 * The function's package is the same on both stages (like every function's): it carries both stages' files (the
 * route's `assets`, copied next to its bundle) and reads its own stage's. Run unbundled (the local stack,
 * `npm run invoke`) it reads them from the build directory. This module reads no route table.
 */
import { gunzipSync } from 'node:zlib';
import type { Stage } from '../../domain/deployments.ts';
import { readBuildAsset } from '../build-assets.ts';

/** Where the generator writes the files, relative to the repository root (git-ignored). */
export const OPENAPI_BUILD_DIR = '.build/openapi';

const stages: readonly Stage[] = ['sandbox', 'live'];

/** The file name of a stage's compressed document: `openapi-sandbox.json.gz`. */
export const openApiAssetFile = (stage: Stage): string => `openapi-${stage}.json.gz`;

/** A stage's compressed document, repository-relative. */
export const openApiAssetPath = (stage: Stage): string => `${OPENAPI_BUILD_DIR}/${openApiAssetFile(stage)}`;

/** Every stage's compressed document, repository-relative: the `assets` of the openapi route. */
export const openApiAssets: readonly string[] = stages.map(openApiAssetPath);

/** The stage's document, decompressed and parsed: next to the bundle when bundled, else from the build directory. */
export function openApiDocument(stage: Stage): Record<string, unknown> {
  const gzip = readBuildAsset(
    openApiAssetPath(stage),
    `OpenAPI document of ${stage}`,
    'the CDK app and the local stack write it, or run `npx tsx infra/openapi-asset.ts`',
  );
  return JSON.parse(gunzipSync(gzip).toString('utf8')) as Record<string, unknown>;
}
