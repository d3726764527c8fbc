/**
 * The browser scripts the platform serves: the hosted checkout pages' script, the hosted-fields SDK and frame
 * script, the dashboard's script, the API reference page's and the customer portal's. Their sources are TypeScript in a `browser/` folder of their module (`shared/checkout/browser/`,
 * `shared/customers/browser/`, `shared/dashboard/browser/`, `shared/docs/browser/`, `shared/portal/browser/`), type-checked with the DOM library (`tsconfig.browser.json`) and bundled and
 * minified by esbuild ahead of time (`infra/browser-scripts.ts`, run by the CDK app at synth, by the local stack
 * when it starts and by `npm run invoke`) into the git-ignored build directory. Each serving route names its
 * script in its `assets`, so the script is copied next to its function's bundle; the function reads it once per
 * container (beside its bundle, or in the build directory when it runs unbundled). This module builds nothing and
 * reads no browser source.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the scripts are built, relative to the repository root (git-ignored). */
export const BROWSER_BUILD_DIR = '.build/browser';

/** Each script, repository-relative: the `assets` of the route that serves it. */
export const CHECKOUT_PAGE_SCRIPT = `${BROWSER_BUILD_DIR}/checkout-page.js` as const;
export const HOSTED_FIELDS_SDK_SCRIPT = `${BROWSER_BUILD_DIR}/hosted-fields-sdk.js` as const;
export const HOSTED_FIELDS_FRAME_SCRIPT = `${BROWSER_BUILD_DIR}/hosted-fields-frame.js` as const;
export const DASHBOARD_SCRIPT = `${BROWSER_BUILD_DIR}/dashboard.js` as const;
export const DOCS_REFERENCE_SCRIPT = `${BROWSER_BUILD_DIR}/docs-api-reference.js` as const;
export const PORTAL_SCRIPT = `${BROWSER_BUILD_DIR}/portal.js` as const;

export const browserScripts = [
  CHECKOUT_PAGE_SCRIPT,
  HOSTED_FIELDS_SDK_SCRIPT,
  HOSTED_FIELDS_FRAME_SCRIPT,
  DASHBOARD_SCRIPT,
  DOCS_REFERENCE_SCRIPT,
  PORTAL_SCRIPT,
] as const;
export type BrowserScript = (typeof browserScripts)[number];

/** The script's text: beside the bundle when bundled, else from the build directory. */
export function readBrowserScript(script: BrowserScript): string {
  const file = path.basename(script);
  const beside = fileURLToPath(new URL(`./${file}`, import.meta.url));
  const built = fileURLToPath(new URL(`../../../${script}`, import.meta.url));
  const found = [beside, built].find((f) => existsSync(f));
  if (!found) {
    throw new Error(
      `The browser script ${file} was not built (${built}): the CDK app and the local stack build it, or run \`npx tsx infra/browser-scripts.ts\``,
    );
  }
  return readFileSync(found, 'utf8');
}
