/**
 * Files a function reads at run time that the build generates from the repository (a route's `assets`: the OpenAPI
 * documents, the docs search index): written under the git-ignored build directory by the CDK app at synth, the
 * local stack at start and `npm run invoke`, and copied beside the function's bundle, flat, by the function
 * construct. Read here from beside the bundle when bundled (this module's URL is then the bundle's), else from the
 * repository's build directory. No route table is read.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bytes of the generated file at `repoPath` (repository-relative). When it is missing, the error names `what` it
 * is and `howToBuild` it.
 */
export function readBuildAsset(repoPath: string, what: string, howToBuild: string): Buffer {
  const beside = fileURLToPath(new URL(`./${path.basename(repoPath)}`, import.meta.url));
  const built = fileURLToPath(new URL(`../../${repoPath}`, import.meta.url));
  const found = [beside, built].find((f) => existsSync(f));
  if (!found) throw new Error(`The ${what} was not built (${built}): ${howToBuild}`);
  return readFileSync(found);
}
