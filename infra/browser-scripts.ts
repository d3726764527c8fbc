/**
 * Builds the browser scripts the platform serves (`shared/platform/http/browser-scripts.ts`) from their TypeScript sources in
 * a module's `browser/` folder: bundled and minified by esbuild into one classic script each (an IIFE: the pages
 * load them with a plain `<script src>`), for the browsers of `browserTarget`, and written to the git-ignored build
 * directory (`.build/browser/`), where the serving routes' `assets` name them. The CDK app writes them before any
 * function is bundled, the local stack when it starts and `npm run invoke` before it runs a function that serves
 * one, so a deployment and the local stack serve the same bytes.
 *
 * Browser code imports no server code: what it needs from the platform's own lists is written in at build time
 * (`define`: the countries the checkout offers), and a test holds every bundle's inputs to files under a `browser/` folder.
 *
 *   npx tsx infra/browser-scripts.ts     # writes them by hand
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type BuildOptions } from 'esbuild';
import { checkoutCountryCodes } from '../shared/domain/tax.ts';
import {
  browserScripts,
  CHECKOUT_PAGE_SCRIPT,
  DASHBOARD_SCRIPT,
  DOCS_REFERENCE_SCRIPT,
  PORTAL_SCRIPT,
  HOSTED_FIELDS_FRAME_SCRIPT,
  HOSTED_FIELDS_SDK_SCRIPT,
  type BrowserScript,
} from '../shared/platform/http/browser-scripts.ts';
import type { RouteDef } from '../shared/platform/http/route-def.ts';
import { writeBuildFile } from './build-file.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Each script's source, repository-relative. */
export const browserScriptSources: Readonly<Record<BrowserScript, string>> = {
  [CHECKOUT_PAGE_SCRIPT]: 'shared/checkout/browser/checkout-page.ts',
  [HOSTED_FIELDS_SDK_SCRIPT]: 'shared/customers/browser/hosted-fields-sdk.ts',
  [HOSTED_FIELDS_FRAME_SCRIPT]: 'shared/customers/browser/hosted-fields-frame.ts',
  [DASHBOARD_SCRIPT]: 'shared/dashboard/browser/dashboard.ts',
  [DOCS_REFERENCE_SCRIPT]: 'shared/docs/browser/api-reference.ts',
  [PORTAL_SCRIPT]: 'shared/portal/browser/portal.ts',
};

/** The browsers the scripts run in: ES2020 syntax, in the browsers that have all of it (and `fetch`, `URL`, `AbortController`). */
export const browserTarget = ['es2020', 'chrome87', 'edge88', 'firefox78', 'safari14.1'];

/** esbuild's options for a script; `define` gives the sources the platform's lists they may not import. */
export const browserBuildOptions = (script: BrowserScript): BuildOptions & { write: false; metafile: true } => ({
  absWorkingDir: repoRoot,
  entryPoints: [path.join(repoRoot, browserScriptSources[script])],
  tsconfig: path.join(repoRoot, 'tsconfig.browser.json'),
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: browserTarget,
  minify: true,
  charset: 'ascii',
  legalComments: 'none',
  define: { MOR_CHECKOUT_COUNTRY_CODES: JSON.stringify(checkoutCountryCodes.join(' ')) },
  write: false,
  metafile: true,
  logLevel: 'silent',
});

/** A script as served, and the files it was built from (repository-relative). A warning fails the build. */
export function buildBrowserScript(script: BrowserScript): { code: Uint8Array; inputs: string[] } {
  const result = buildSync(browserBuildOptions(script));
  if (result.warnings.length) {
    throw new Error(`Building ${script}: ${result.warnings.map((w) => `${w.location?.file ?? ''}:${w.location?.line ?? ''} ${w.text}`).join('; ')}`);
  }
  const [output] = result.outputFiles;
  if (!output || result.outputFiles.length !== 1) throw new Error(`Building ${script} gave ${result.outputFiles.length} files, not one`);
  return { code: output.contents, inputs: Object.keys(result.metafile.inputs) };
}

/** Builds `scripts` (default: all) under `root` (default: the repository) and returns their absolute paths. */
export function writeBrowserScripts(root: string = repoRoot, scripts: readonly BrowserScript[] = browserScripts): string[] {
  return scripts.map((script) => {
    const file = path.join(root, script);
    writeBuildFile(file, buildBrowserScript(script).code);
    return file;
  });
}

/** The scripts that `routes` serve (their `assets` name them). */
export const browserScriptsOf = (routes: readonly Pick<RouteDef, 'assets'>[]): BrowserScript[] =>
  browserScripts.filter((script) => routes.some((r) => r.assets?.includes(script)));

/** Builds the scripts that `routes` serve (none when no route serves one). */
export function writeBrowserScriptsFor(routes: readonly Pick<RouteDef, 'assets'>[], root?: string): void {
  const scripts = browserScriptsOf(routes);
  if (scripts.length) writeBrowserScripts(root, scripts);
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  for (const file of writeBrowserScripts()) console.log(path.relative(repoRoot, file));
}
