/**
 * The esbuild settings of every function bundle, in one place: the CDK construct (`lambda-function.ts`) bundles
 * the functions with them (`function-bundles.ts`: one build for all the functions of an app), and
 * `npm run bench:bundles` builds the same bundles with esbuild directly. Nothing here loads the CDK.
 *
 * - Minified ESM for Node 22 with the `createRequire` banner (CommonJS code inside the bundle calls `require`
 *   for Node built-ins), a source map without the sources' text.
 * - `mainFields` makes esbuild take every package's ES build, so no SDK package lands in a bundle twice and
 *   the unused parts of the SDK are tree-shaken away.
 * - `@aws-sdk/credential-provider-node` (the SDK's default credential chain) is replaced by the environment
 *   provider (`env-credentials.ts`): the SSO/STS/ini/process providers are never bundled.
 * - `@aws-sdk/lib-dynamodb`'s index is replaced by `lib-dynamodb.js`, which takes the document client and each
 *   command from its own module: the index's paginators (a call at import naming the Query and Scan commands) are
 *   never bundled.
 * - `@smithy/core/event-streams` is replaced by `no-event-streams.ts`: no operation a function calls streams events,
 *   and the SDK's lazy `import()` of the codec would otherwise be inlined into every bundle (19 KB).
 * - `@smithy/core/checksum` is replaced by `node-checksums.ts`: the SDK's `Sha256` and `Md5` on Node's `crypto`, without
 *   the JavaScript hashes they fall back to on a runtime that has none (3.5 KB less in every function, 5.2 KB where
 *   SQS is sent to).
 * - `mnemonist/lru-cache` (the DynamoDB client's endpoint-discovery cache) is replaced by `lru-cache.ts`, the same
 *   cache on a `Map` (7 KB less in every function that uses DynamoDB).
 * - `process.env.MOR_XRAY_SDK` is a build-time constant: `"false"` unless the function traces with the X-Ray
 *   SDK, so `shared/platform/observability.ts`'s lazy import of the tracer is dead code and esbuild leaves the X-Ray SDK
 *   out of the bundle.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const constructsDir = path.dirname(fileURLToPath(import.meta.url));

/**
 * Banner of every ESM bundle: CommonJS code inside the bundle calls `require` for Node built-ins, which an
 * ES module does not have. The alias avoids a clash with a bundled module's own `createRequire` import.
 */
export const esmRequireBanner = "import { createRequire as __morCreateRequire } from 'node:module'; const require = __morCreateRequire(import.meta.url);";

/**
 * Every bundle's aliases: a package (or one module of it) and the module that stands in for it. The floor of
 * `npm run bench:bundles` is built without them.
 */
const aliases = {
  '@aws-sdk/credential-provider-node': path.join(constructsDir, 'env-credentials.ts'),
  '@aws-sdk/lib-dynamodb': path.join(constructsDir, 'lib-dynamodb.js'),
  '@smithy/core/checksum': path.join(constructsDir, 'node-checksums.ts'),
  '@smithy/core/event-streams': path.join(constructsDir, 'no-event-streams.ts'),
  'mnemonist/lru-cache': path.join(constructsDir, 'lru-cache.ts'),
};

/** What varies between functions: whether the function traces its AWS calls with the X-Ray SDK. */
export interface BundleOptions {
  readonly xraySdk: boolean;
}

/** esbuild's own options for a function bundle (the subset the CDK passes on, spelled as esbuild's API takes them). */
export function esbuildSettings({ xraySdk }: BundleOptions) {
  return {
    bundle: true,
    platform: 'node' as const,
    format: 'esm' as const,
    target: 'node22',
    mainFields: ['module', 'main'],
    banner: { js: esmRequireBanner },
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    external: [] as string[],
    alias: aliases,
    define: { 'process.env.MOR_XRAY_SDK': JSON.stringify(String(xraySdk)) },
  };
}
