/**
 * The function bundles of an app come from one esbuild build (`infra/constructs/function-bundles.ts`), and are byte for
 * byte the bundles a build of each function alone makes: the code, the source map (its `sources` paths too) and the
 * metafile. The construct takes each function's bundle from that build, builds a function the plan does not have on
 * its own, and leaves no build directory behind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Metafile } from 'esbuild';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { consumers } from '../../infra/consumers.ts';
import { stageConfig } from '../../infra/config.ts';
import type { BundleOptions } from '../../infra/constructs/bundling.ts';
import {
  buildFunctionBundle,
  buildFunctionBundles,
  bundleDirPrefix,
  bundleFiles,
  functionBundleBuilds,
  planFunctionBundles,
} from '../../infra/constructs/function-bundles.ts';
import { LambdaFunction } from '../../infra/constructs/lambda-function.ts';
import { routesFor } from '../../shared/routes/index.ts';
import { bundleDirOf, removeOutdir, resourcesOfType, tempOutdir } from './synth.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const outdirs: string[] = [];
const outdir = () => {
  const dir = tempOutdir();
  outdirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of outdirs) removeOutdir(dir);
});

const routes = routesFor('sandbox');
const handlerOf = (name: string) => {
  const found = routes.find((r) => r.name === name)?.handler ?? consumers.find((c) => c.name === name)?.handler;
  if (!found) throw new Error(`No function ${name}`);
  return found;
};
/**
 * Functions of every kind: no table (health), a document beside it (openapi), an organization-key route reading the
 * table (products-get), the heaviest bundles (the MCP endpoint, the invoice PDF), a page, and a queue consumer.
 */
const representative = ['health', 'openapi', 'products-get', 'mcp', 'dashboard-invoice-pdf', 'dashboard-home', 'webhook-sender'].map(handlerOf);

/** Where `a` and `b` first differ (for a readable failure), or null when they are the same bytes. */
function firstDifference(a: Buffer, b: Buffer): string | null {
  if (a.equals(b)) return null;
  let at = 0;
  while (at < Math.min(a.length, b.length) && a[at] === b[at]) at++;
  return `${a.length} vs ${b.length} bytes, first difference at ${at}: ${JSON.stringify(a.subarray(at, at + 80).toString())} vs ${JSON.stringify(b.subarray(at, at + 80).toString())}`;
}

/**
 * The bundle of `entry` built alone (`buildFunctionBundle`) into a directory in `dir`, beside the ones the one build
 * and the CDK write there; once per entry and options in this file (the same build makes the same bytes, and every
 * `dir` here is a temporary directory of the same depth, so the source map's relative paths are the same too).
 */
const aloneBuilds = new Map<string, { dir: string; metafile: Metafile }>();
function builtAlone(entry: string, options: BundleOptions, dir: string): { dir: string; metafile: Metafile } {
  const key = `${options.xraySdk}\0${entry}`;
  if (!aloneBuilds.has(key)) {
    const to = path.join(dir, `alone-${options.xraySdk ? 'xray-' : ''}${entry.replaceAll('/', '_')}`);
    aloneBuilds.set(key, { dir: to, metafile: buildFunctionBundle(entry, options, to) });
  }
  return aloneBuilds.get(key)!;
}

/** Each entry built alone into a directory beside the ones the one build writes, as the CDK's bundling directories are. */
function expectSameAsAlone(entries: readonly string[], options: BundleOptions): void {
  const dir = outdir();
  const together = buildFunctionBundles(entries, options, dir);
  expect([...together.keys()].sort()).toEqual([...new Set(entries)].sort());
  for (const entry of entries) {
    const bundle = together.get(entry)!;
    expect(path.dirname(bundle.dir)).toBe(dir);
    const { dir: alone, metafile } = builtAlone(entry, options, dir);
    for (const file of bundleFiles) {
      expect(firstDifference(readFileSync(path.join(bundle.dir, file)), readFileSync(path.join(alone, file))), `${entry} ${file}`).toBeNull();
    }
    // The source map names the handler by its path from the bundle, as a bundle built alone does.
    const sources: string[] = JSON.parse(readFileSync(path.join(bundle.dir, 'index.mjs.map'), 'utf8')).sources;
    expect(
      sources.map((source) => path.resolve(bundle.dir, source)),
      entry,
    ).toContain(path.join(repoRoot, entry));
    // Its own metafile: the inputs and outputs of the build of it alone (the outputs' paths name its directory).
    expect(Object.keys(bundle.metafile.inputs).sort(), entry).toEqual(Object.keys(metafile.inputs).sort());
    expect(bundle.metafile.inputs, entry).toEqual(metafile.inputs);
    const outputsOf = (outputs: typeof metafile.outputs, from: string) =>
      Object.fromEntries(Object.entries(outputs).map(([file, output]) => [path.relative(from, path.resolve(repoRoot, file)), output]));
    expect(outputsOf(bundle.metafile.outputs, bundle.dir), entry).toEqual(outputsOf(metafile.outputs, alone));
  }
}

describe('the one build of the function bundles', () => {
  it('makes each function the bundle, source map and metafile a build of it alone makes, byte for byte', () => {
    expectSameAsAlone(representative, { xraySdk: false });
  }, 120_000);

  it('does so with the X-Ray SDK bundled too, and for an entry two functions share', () => {
    expectSameAsAlone([handlerOf('health'), handlerOf('products-get'), handlerOf('health')], { xraySdk: true });
  }, 120_000);
});

describe('the function construct in a planned app', () => {
  const config = stageConfig('sandbox', () => undefined, {});
  const health = handlerOf('health');
  const productsGet = handlerOf('products-get');
  const unplanned = 'test/infra/fixtures/consumer.ts';

  /** A stack of functions (name, entry, assets) in an app that plans `planned`, and the builds it ran. */
  function synthesizeFunctions(
    planned: readonly { entry: string; assets?: readonly string[] }[],
    functions: readonly [string, string, readonly string[]][],
    context: Record<string, unknown> = {},
  ) {
    const dir = outdir();
    // A fixture stack for the bundling: its template is not what these tests check (the apps' templates are, with the
    // CDK's CloudFormation validation, in app.test.ts), so it is synthesized without that validation, whose engine
    // alone takes seconds of CPU to start.
    const app = new App({ outdir: dir, context, builtinCloudFormationValidation: false });
    const stack = new Stack(app, 'Bundles');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    planFunctionBundles(app, planned);
    const before = functionBundleBuilds().length;
    for (const [name, entry, assets] of functions) {
      new LambdaFunction(stack, name, { config, name, entry, timeout: Duration.seconds(10), table, tableAccess: 'none', assets });
    }
    const builds = functionBundleBuilds().slice(before);
    const codeDirs = Object.fromEntries(
      resourcesOfType(Template.fromStack(stack), 'AWS::Lambda::Function').map(([, fn]) => [
        fn.Properties!.FunctionName.replace(/^mor-sandbox-/, ''),
        bundleDirOf(dir, fn),
      ]),
    );
    return { dir, builds, codeDirs };
  }

  it('bundles the planned functions with one build, builds the one it does not plan alone, and leaves no build directory', () => {
    const { dir, builds, codeDirs } = synthesizeFunctions(
      [{ entry: health }, { entry: health, assets: ['biome.json'] }, { entry: productsGet }],
      [
        ['health-a', health, []],
        ['health-b', health, ['biome.json']],
        ['products', productsGet, []],
        ['unplanned', unplanned, []],
      ],
    );
    expect(builds).toEqual([
      { entries: 2, together: true, xraySdk: false },
      { entries: 1, together: false, xraySdk: false },
    ]);
    expect(readdirSync(dir).filter((d) => d.startsWith(bundleDirPrefix))).toEqual([]);
    // Each function's staged code: its bundle as built alone, and its assets beside it.
    const alone = (entry: string) => builtAlone(entry, { xraySdk: false }, dir).dir;
    for (const [name, entry, assets] of [
      ['health-a', health, []],
      ['health-b', health, ['biome.json']],
      ['products', productsGet, []],
      ['unplanned', unplanned, []],
    ] as const) {
      expect(readdirSync(codeDirs[name]!).sort(), name).toEqual([...bundleFiles, ...assets].sort());
      for (const file of bundleFiles) {
        expect(firstDifference(readFileSync(path.join(codeDirs[name]!, file)), readFileSync(path.join(alone(entry), file))), `${name} ${file}`).toBeNull();
      }
    }
  }, 120_000);

  it('builds each function alone when the CLI bundles only some stacks', () => {
    const { builds, codeDirs } = synthesizeFunctions(
      [{ entry: health }, { entry: productsGet }],
      [
        ['health', health, []],
        ['products', productsGet, []],
      ],
      { 'aws:cdk:bundling-stacks': ['Bundles'] },
    );
    expect(builds).toEqual([
      { entries: 1, together: false, xraySdk: false },
      { entries: 1, together: false, xraySdk: false },
    ]);
    expect(Object.keys(codeDirs).sort()).toEqual(['health', 'products']);
  }, 120_000);
});
