/**
 * The openapi function as deployed: its bundle, built with the CDK's esbuild settings, with the files of its
 * route's `assets` copied beside it (as the function construct copies them), serves each stage's document exactly
 * as the route table builds it, and carries none of the route table's schemas.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stage } from '../../shared/domain/deployments.ts';
import { esbuildSettings } from '../../infra/constructs/bundling.ts';
import { openApiJson, writeOpenApiAssets } from '../../infra/openapi-asset.ts';
import { buildOpenApi } from '../../shared/platform/http/openapi.ts';
import { apiDocs } from '../../shared/routes/docs/index.ts';
import { routesFor } from '../../shared/routes/index.ts';
import * as systemRoutes from '../../shared/routes/system.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const execFileAsync = promisify(execFile);
const stages: readonly Stage[] = ['sandbox', 'live'];

let outRoot: string;

async function bundle(entry: string, dir: string, { envCredentials = true } = {}) {
  const settings = esbuildSettings({ xraySdk: false });
  const file = path.join(dir, 'index.mjs');
  const result = await build({
    ...settings,
    alias: envCredentials ? settings.alias : {},
    absWorkingDir: repoRoot,
    entryPoints: [path.join(repoRoot, entry)],
    outfile: file,
    metafile: true,
    logLevel: 'silent',
  });
  return { file, bytes: statSync(file).size, inputs: Object.keys(result.metafile.inputs) };
}

/** Imports the bundle in a fresh Node process with a deployed function's environment and calls it once with the sample event. */
async function invoke(file: string, stage: Stage) {
  const resultFile = path.join(path.dirname(file), `result-${stage}-${Date.now()}.json`);
  const script = `import { writeFileSync } from 'node:fs';
    const { handler } = await import(${JSON.stringify(pathToFileURL(file).href)});
    const event = JSON.parse(${JSON.stringify(readFileSync(path.join(repoRoot, 'events', 'openapi.json'), 'utf8'))});
    const context = { functionName: 'mor-test-openapi', functionVersion: '$LATEST', awsRequestId: 'test', memoryLimitInMB: '512',
      invokedFunctionArn: 'arn:aws:lambda:eu-west-1:000000000000:function:mor-test-openapi', getRemainingTimeInMillis: () => 10000 };
    writeFileSync(${JSON.stringify(resultFile)}, JSON.stringify(await handler(event, context)));`;
  await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
    timeout: 30_000,
    env: {
      PATH: process.env.PATH,
      STAGE: stage,
      TABLE_NAME: `mor-${stage}-main`,
      DASHBOARD_URL: 'https://dashboard.example.com',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      POWERTOOLS_SERVICE_NAME: 'mor',
      POWERTOOLS_METRICS_NAMESPACE: 'Mor/Test',
      POWERTOOLS_LOG_LEVEL: 'ERROR',
    },
  });
  return JSON.parse(readFileSync(resultFile, 'utf8')) as { statusCode: number; headers: Record<string, string>; body: string };
}

beforeAll(() => {
  outRoot = mkdtempSync(path.join(tmpdir(), 'mor-openapi-bundle-'));
});
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

describe('the openapi function bundle', () => {
  it('serves each stage its own document, exactly as the route table builds it', async () => {
    const dir = path.join(outRoot, 'with-assets');
    mkdirSync(dir);
    const { file } = await bundle(systemRoutes.openapi.handler, dir);
    writeOpenApiAssets();
    for (const asset of systemRoutes.openapi.assets) copyFileSync(path.join(repoRoot, asset), path.join(dir, path.basename(asset)));

    const served: Partial<Record<Stage, string>> = {};
    for (const stage of stages) {
      const result = await invoke(file, stage);
      expect(result.statusCode, stage).toBe(200);
      expect(result.headers['content-type'], stage).toBe('application/json');
      expect(result.body, stage).toBe(JSON.stringify(buildOpenApi(routesFor(stage), apiDocs)));
      served[stage] = result.body;
    }
    // A sandbox-only route is in the sandbox document and not in the live one.
    const sandboxOnly = routesFor('sandbox').filter((r) => !routesFor('live').includes(r));
    expect(sandboxOnly.length).toBeGreaterThan(0);
    expect(served.sandbox).not.toBe(served.live);
    const livePaths = JSON.parse(served.live!).paths as Record<string, Record<string, unknown>>;
    for (const r of sandboxOnly) expect(livePaths[r.path]?.[r.method.toLowerCase()], r.name).toBeUndefined();
  }, 60_000);

  it('fails to start when its document is not beside it, naming the missing file', async () => {
    const dir = path.join(outRoot, 'without-assets');
    mkdirSync(dir);
    const { file } = await bundle(systemRoutes.openapi.handler, dir);
    await expect(invoke(file, 'sandbox')).rejects.toThrow(/OpenAPI document of sandbox was not built/);
  }, 60_000);

  it('carries no route schemas, no JSON Schema converter and no document builder, and is at most a quarter of the floor', async () => {
    const dir = path.join(outRoot, 'contents');
    const floorDir = path.join(outRoot, 'floor');
    mkdirSync(dir);
    mkdirSync(floorDir);
    const [fn, floor] = await Promise.all([
      bundle(systemRoutes.openapi.handler, dir),
      // The floor as the bundle benchmark builds it: a minimal middy + valibot + DynamoDB GetItem handler.
      bundle('test/bench/floor-handler.ts', floorDir, { envCredentials: false }),
    ]);
    expect(fn.inputs).toContain('shared/platform/http/openapi-document.ts');
    expect(fn.inputs.filter((i) => /^shared\/(schemas|db|services)\/|@valibot\/to-json-schema|^shared\/http\/openapi\.ts$/.test(i))).toEqual([]);
    // Its own route's file (and the route types the middleware reads), no other face's routes.
    expect(fn.inputs.filter((i) => i.startsWith('shared/routes/') && !['shared/routes/system.ts', 'shared/platform/http/route-def.ts'].includes(i))).toEqual(
      [],
    );
    expect(fn.bytes).toBeLessThanOrEqual(floor.bytes / 4);
  }, 60_000);
});

describe('the OpenAPI document files', () => {
  it('are written for every stage the openapi route carries, gzip of the document, the same bytes every time', async () => {
    const { gunzipSync } = await import('node:zlib');
    const first = writeOpenApiAssets();
    const bytes = Object.fromEntries(stages.map((s) => [s, readFileSync(first[s])]));
    expect(systemRoutes.openapi.assets.map((a) => path.join(repoRoot, a)).sort()).toEqual(Object.values(first).sort());
    for (const stage of stages) expect(gunzipSync(bytes[stage]!).toString('utf8'), stage).toBe(openApiJson(stage));
    const again = writeOpenApiAssets();
    for (const stage of stages) expect(readFileSync(again[stage]).equals(bytes[stage]!), stage).toBe(true);
  });
});
