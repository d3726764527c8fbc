/**
 * Benchmark of the function bundles: builds every function (each route's handler and each consumer) with the
 * esbuild settings the CDK uses (infra/constructs/bundling.ts, X-Ray SDK off as deployed by default), plus the
 * floor (test/bench/floor-handler.ts: middy + valibot + the DynamoDB document client's `GetItem`), then reports
 * each bundle's size and its cold `import()` time (a fresh Node process per import, the median of `--runs`)
 * against the floor's, whose imports take turns with the function's. A route's `assets` are copied beside its bundle as the CDK copies them (the openapi
 * function reads its document at import); their sizes are not in the bundle's, the openapi documents' and the browser
 * scripts' (with their gzip size, as a browser would fetch them compressed) are printed apart.
 *
 * The floor is a minimal function as commonly written and built: the same esbuild settings without the aliases
 * (`bundling.ts`) by which every function takes a module of the platform's in place of a package's. One of them
 * changes what the code means: the environment credential provider in place of the SDK's default credential chain,
 * which `new DynamoDBClient({})` takes. The others leave out code no function runs (the document client's
 * paginators, the SDK's event-stream codec) or stand a smaller equivalent in (the endpoint-discovery cache's LRU).
 * Two more floors are printed beside it: built with the credential alias alone (`floorEnvCredentialsBytes`), and
 * with every alias, as the functions are (`floorWithAliasesBytes`): the latter is essentially the SDK alone as the
 * functions carry it, and what a function weighs above it is its own code.
 *
 * Run: `npm run bench:bundles [-- --runs 11]` (11 by default: the cold import goal is decided by a few ms, which
 * fewer runs leave to chance). Prints a table, then the goals, then ONE JSON line of
 * the figures last. The sizes do not depend on the machine; the import times do (it also prints the CPU count and
 * load average seen).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { esbuildSettings } from '../../infra/constructs/bundling.ts';
import { writeBrowserScripts } from '../../infra/browser-scripts.ts';
import { writeOpenApiAssets } from '../../infra/openapi-asset.ts';
import { writeDocsIndex } from '../../infra/docs-index-asset.ts';
import { repoRoot } from '../../infra/local/settings.ts';
import { routesFor } from '../../shared/routes/index.ts';
import { type Fn, floorEntry, functionsToBuild, heavyByNature } from './functions.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '11' } } });
const runs = Math.max(1, Number(values.runs));
const execFileAsync = promisify(execFile);

interface Built extends Fn {
  file: string;
  bytes: number;
  inputs: string[];
}

/** The files a route's function reads at run time (its `assets`), copied beside its bundle as the CDK copies them. */
const assetsByEntry = new Map([...routesFor('sandbox'), ...routesFor('live'), ...routesFor('live', 'tokenization')].map((r) => [r.handler, r.assets ?? []]));

async function bundle(fn: Fn, outRoot: string, alias?: Record<string, string>): Promise<Built> {
  const file = path.join(outRoot, fn.name, 'index.mjs');
  const settings = esbuildSettings({ xraySdk: false });
  const result = await build({
    ...settings,
    alias: alias ?? settings.alias,
    absWorkingDir: repoRoot,
    entryPoints: [path.join(repoRoot, fn.entry)],
    outfile: file,
    metafile: true,
    logLevel: 'warning',
  });
  for (const asset of assetsByEntry.get(fn.entry) ?? []) copyFileSync(path.join(repoRoot, asset), path.join(path.dirname(file), path.basename(asset)));
  return { ...fn, file, bytes: statSync(file).size, inputs: Object.keys(result.metafile.inputs) };
}

/** The environment a deployed function imports with (no endpoint, fake credentials: nothing is called). */
const importEnv = {
  PATH: process.env.PATH,
  STAGE: 'sandbox',
  TABLE_NAME: 'mor-sandbox-main',
  DASHBOARD_URL: 'https://dashboard.example.com',
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'bench',
  AWS_SECRET_ACCESS_KEY: 'bench',
  AWS_EC2_METADATA_DISABLED: 'true',
  POWERTOOLS_SERVICE_NAME: 'mor',
  POWERTOOLS_METRICS_NAMESPACE: 'Mor/Bench',
};

/** Milliseconds one fresh Node process takes to `import()` the bundle (its start-up itself not counted). */
async function coldImportMs(file: string): Promise<number> {
  const script = `const t = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(file).href)});
    if (typeof m.handler !== 'function') throw new Error('no handler'); process.stdout.write(String(performance.now() - t));`;
  const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], { env: importEnv, timeout: 30_000 });
  return Number(stdout);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const round1 = (ms: number) => Math.round(ms * 10) / 10;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const has = (b: Built, pattern: RegExp) => b.inputs.some((i) => pattern.test(i));

const loadAtStart = loadavg()[0]!;
const outRoot = mkdtempSync(path.join(tmpdir(), 'mor-bundles-'));
try {
  const fns = functionsToBuild();
  writeOpenApiAssets();
  writeDocsIndex();
  const browserScriptFiles = writeBrowserScripts();
  const credentialsAlias = '@aws-sdk/credential-provider-node';
  const floor = await bundle({ name: 'floor', entry: floorEntry }, outRoot, {});
  const floorEnv = await bundle({ name: 'floor-env-credentials', entry: floorEntry }, outRoot, {
    [credentialsAlias]: esbuildSettings({ xraySdk: false }).alias[credentialsAlias],
  });
  const floorAliases = await bundle({ name: 'floor-with-aliases', entry: floorEntry }, outRoot);
  const built: Built[] = [];
  for (let i = 0; i < fns.length; i += 4) built.push(...(await Promise.all(fns.slice(i, i + 4).map((fn) => bundle(fn, outRoot)))));
  built.sort((a, b) => b.bytes - a.bytes);

  // Each function's imports take turns with imports of the floor, so a change of the machine's load during the
  // run touches both alike: a function is compared with the floor measured alongside it.
  const cold = new Map<string, number>();
  const floorBeside = new Map<string, number>();
  const floorTimes: number[] = [];
  for (const b of built) {
    const times: number[] = [];
    const floorTimesBeside: number[] = [];
    for (let i = 0; i < runs; i++) {
      floorTimesBeside.push(await coldImportMs(floor.file));
      times.push(await coldImportMs(b.file));
    }
    floorTimes.push(...floorTimesBeside);
    cold.set(b.name, round1(median(times)));
    floorBeside.set(b.name, round1(median(floorTimesBeside)));
  }
  const floorColdImportMs = round1(median(floorTimes));

  const rows = built.map((b) => ({
    function: b.name,
    bytes: b.bytes,
    size: kb(b.bytes),
    ofFloor: `${Math.round((b.bytes / floor.bytes) * 100)}%`,
    coldImportMs: cold.get(b.name)!,
    floorBesideMs: floorBeside.get(b.name)!,
    dynamodb: has(b, /node_modules\/@aws-sdk\/client-dynamodb\//),
    xray: has(b, /node_modules\/aws-xray-sdk-core\//),
    ssoSts: has(b, /node_modules\/@aws-sdk\/(credential-provider-(sso|ini|process|web-identity|login)|nested-clients)\//),
    note: heavyByNature[b.entry] ?? '',
  }));
  console.log(`Function bundles (${built.length}), built as the CDK builds them; cold import: median of ${runs} fresh Node processes.`);
  console.log(
    `Floor (middy + valibot + DynamoDB document client GetItem): ${kb(floor.bytes)}, cold import ${floorColdImportMs} ms;` +
      ` with the environment credential provider too: ${kb(floorEnv.bytes)}; with every alias of the functions: ${kb(floorAliases.bytes)}.`,
  );
  console.table(rows.map(({ bytes: _bytes, ...row }) => row));

  const ordinary = built.filter((b) => !heavyByNature[b.entry]);
  const heavy = built.filter((b) => heavyByNature[b.entry]);
  const health = built.find((b) => b.name === 'health');
  const openapi = built.find((b) => b.name === 'openapi');
  if (!health || !openapi) throw new Error('the health and openapi functions were not found');
  const heaviest = ordinary[0]!;
  const overFloor = built.filter((b) => b.bytes > floor.bytes).map((b) => b.name);
  const goals = {
    [`every ordinary function bundle <= floor (${kb(floor.bytes)}): largest ${heaviest.name} ${kb(heaviest.bytes)}`]: heaviest.bytes <= floor.bytes,
    [`health ${kb(health.bytes)} <= a quarter of the floor (${kb(floor.bytes / 4)})`]: health.bytes <= floor.bytes / 4,
    [`openapi ${kb(openapi.bytes)} <= a quarter of the floor (${kb(floor.bytes / 4)})`]: openapi.bytes <= floor.bytes / 4,
    [`cold import of the heaviest (${heaviest.name}) ${cold.get(heaviest.name)} ms <= the floor's ${floorBeside.get(heaviest.name)} ms (measured in turns with it)`]:
      cold.get(heaviest.name)! <= floorBeside.get(heaviest.name)!,
  };
  // The openapi function's package also carries each stage's document (gzip JSON, its route's `assets`).
  const openapiAssetBytes = Object.fromEntries(
    (assetsByEntry.get(openapi.entry) ?? []).map((asset) => [path.basename(asset), statSync(path.join(path.dirname(openapi.file), path.basename(asset))).size]),
  );
  console.log(
    `openapi: bundle ${kb(openapi.bytes)}, plus the documents beside it (gzip): ` +
      `${Object.entries(openapiAssetBytes)
        .map(([name, bytes]) => `${name} ${kb(bytes)}`)
        .join(', ')}`,
  );
  // The browser scripts some functions serve (their routes' `assets`): minified, and their gzip size.
  const browserScriptBytes = Object.fromEntries(
    browserScriptFiles.map((file) => {
      const code = readFileSync(file);
      return [path.basename(file), { bytes: code.length, gzipBytes: gzipSync(code, { level: constants.Z_BEST_COMPRESSION }).length }];
    }),
  );
  console.log(
    `browser scripts (minified / gzip): ${Object.entries(browserScriptBytes)
      .map(([name, s]) => `${name} ${kb(s.bytes)} / ${kb(s.gzipBytes)}`)
      .join(', ')}`,
  );
  console.log('Goals:');
  for (const [goal, met] of Object.entries(goals)) console.log(`  ${met ? 'met    ' : 'NOT MET'}  ${goal}`);
  for (const b of heavy) {
    console.log(
      `  apart: ${b.name} ${kb(b.bytes)} (${Math.round((b.bytes / floor.bytes) * 100)}% of the floor), cold import ${cold.get(b.name)} ms: ${heavyByNature[b.entry]}`,
    );
  }
  // Not a goal, shown so a reader can judge the one that is: every ordinary function against the floor measured
  // alongside it, and the slowest.
  const slowest = ordinary.reduce((a, b) => (cold.get(b.name)! > cold.get(a.name)! ? b : a));
  const coldImportsOverFloor = ordinary.filter((b) => cold.get(b.name)! > floorBeside.get(b.name)!).length;
  console.log(
    `Cold imports: ${coldImportsOverFloor} of ${ordinary.length} ordinary functions slower than the floor measured in turns` +
      ` with them (the floor's median over the run: ${floorColdImportMs} ms); slowest ${slowest.name} ${cold.get(slowest.name)} ms` +
      ` (the floor beside it ${floorBeside.get(slowest.name)} ms)`,
  );
  console.log(`Machine: ${cpus().length} CPUs, 1-minute load average ${loadAtStart.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end`);
  console.log(
    JSON.stringify({
      floorBytes: floor.bytes,
      floorEnvCredentialsBytes: floorEnv.bytes,
      floorWithAliasesBytes: floorAliases.bytes,
      largestBundleToFloor: Math.round((heaviest.bytes / floor.bytes) * 1000) / 1000,
      maxBundleBytes: heaviest.bytes,
      maxBundleFunction: heaviest.name,
      healthBytes: health.bytes,
      openapiBytes: openapi.bytes,
      openapiAssetBytes,
      browserScriptBytes,
      floorColdImportMs,
      heaviestColdImportMs: cold.get(heaviest.name),
      floorBesideHeaviestColdImportMs: floorBeside.get(heaviest.name),
      slowestColdImport: { function: slowest.name, ms: cold.get(slowest.name), floorBesideMs: floorBeside.get(slowest.name) },
      coldImportsOverFloor,
      functionsOverFloor: overFloor,
      apart: heavy.map((b) => ({ function: b.name, bytes: b.bytes, coldImportMs: cold.get(b.name) })),
      functions: built.length,
      runs,
      cpus: cpus().length,
      loadAverage1mAtStart: Number(loadAtStart.toFixed(2)),
      loadAverage1mAtEnd: Number(loadavg()[0]!.toFixed(2)),
    }),
  );
} finally {
  rmSync(outRoot, { recursive: true, force: true });
}
