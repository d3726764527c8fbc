/**
 * The browser scripts (the checkout page's, the hosted-fields SDK and frame script): each is built by esbuild from
 * its TypeScript source in a `browser/` folder and from nothing outside one (browser code imports no server code),
 * and the function that serves it, bundled as the CDK bundles it with its route's `assets` copied beside it, serves
 * exactly the built bytes without carrying the script itself.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildSettings } from '../../infra/constructs/bundling.ts';
import { browserScriptSources, buildBrowserScript, writeBrowserScripts } from '../../infra/browser-scripts.ts';
import { checkoutCountryCodes } from '../../shared/domain/tax.ts';
import { browserScripts, type BrowserScript } from '../../shared/platform/http/browser-scripts.ts';
import { routesFor, type RouteDef } from '../../shared/routes/index.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');
const execFileAsync = promisify(execFile);

const allRoutes = [...routesFor('sandbox'), ...routesFor('live'), ...routesFor('live', 'tokenization')];
/** The routes whose `assets` name `script`. */
const servingRoutes = (script: BrowserScript): RouteDef[] => [...new Map(allRoutes.filter((r) => r.assets?.includes(script)).map((r) => [r.name, r])).values()];

let outRoot: string;
beforeAll(() => {
  outRoot = mkdtempSync(path.join(tmpdir(), 'mor-browser-scripts-'));
});
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

async function bundleFunction(entry: string, dir: string) {
  const file = path.join(dir, 'index.mjs');
  const result = await build({
    ...esbuildSettings({ xraySdk: false }),
    absWorkingDir: repoRoot,
    entryPoints: [path.join(repoRoot, entry)],
    outfile: file,
    metafile: true,
    logLevel: 'silent',
  });
  return { file, code: readFileSync(file, 'utf8'), inputs: Object.keys(result.metafile.inputs) };
}

/** Imports the bundle in a fresh Node process with a deployed function's environment and calls it once with the route's sample event. */
async function invoke(file: string, route: RouteDef) {
  const resultFile = path.join(path.dirname(file), `result-${Date.now()}.json`);
  const script = `import { writeFileSync } from 'node:fs';
    const { handler } = await import(${JSON.stringify(pathToFileURL(file).href)});
    const event = JSON.parse(${JSON.stringify(readFileSync(path.join(repoRoot, 'events', `${route.name}.json`), 'utf8'))});
    const context = { functionName: 'mor-test-${route.name}', functionVersion: '$LATEST', awsRequestId: 'test', memoryLimitInMB: '512',
      invokedFunctionArn: 'arn:aws:lambda:eu-west-1:000000000000:function:mor-test-${route.name}', getRemainingTimeInMillis: () => 10000 };
    writeFileSync(${JSON.stringify(resultFile)}, JSON.stringify(await handler(event, context)));`;
  await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
    timeout: 30_000,
    env: {
      PATH: process.env.PATH,
      STAGE: 'sandbox',
      TABLE_NAME: 'mor-sandbox-main',
      DASHBOARD_URL: 'https://dashboard.example.com',
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      POWERTOOLS_SERVICE_NAME: 'mor',
      POWERTOOLS_METRICS_NAMESPACE: 'Mor/Test',
      POWERTOOLS_LOG_LEVEL: 'ERROR',
    },
  });
  return JSON.parse(readFileSync(resultFile, 'utf8')) as { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded?: boolean };
}

describe('each browser script', () => {
  it.each(browserScripts)('%s is built from its own browser source and from files under a browser/ folder only', (script) => {
    const { code, inputs } = buildBrowserScript(script);
    expect(inputs).toContain(browserScriptSources[script]);
    expect(
      inputs.filter((i) => !/(^|\/)browser\/[^/]+\.ts$/.test(i)),
      script,
    ).toEqual([]);
    expect(
      inputs.filter((i) => i.includes('node_modules')),
      script,
    ).toEqual([]);
    // A classic script (no import or export), minified to one line, ASCII only (served as is, whatever the charset).
    const text = Buffer.from(code).toString('utf8');
    expect(text).toMatch(/^"use strict";\(\(\)=>\{/);
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    expect(text).not.toMatch(/[^\x20-\x7e\n]/);
    // Built again, the same bytes.
    expect(Buffer.from(buildBrowserScript(script).code).equals(Buffer.from(code))).toBe(true);
  });

  it("gets the platform's list of the countries the checkout sells to written in at build time, not imported", () => {
    const { code, inputs } = buildBrowserScript(browserScripts.find((s) => s.endsWith('/checkout-page.js'))!);
    expect(inputs).not.toContain('shared/domain/countries.ts');
    expect(inputs).not.toContain('shared/domain/tax.ts');
    expect(Buffer.from(code).toString('utf8')).toContain(JSON.stringify(checkoutCountryCodes.join(' ')));
  });

  it.each(browserScripts)(
    '%s is served byte for byte by the function of the one route that names it, which does not carry it',
    async (script) => {
      const routes = servingRoutes(script);
      expect(routes.map((r) => r.handler)).toHaveLength(1);
      const route = routes[0]!;
      expect(route.assets).toEqual([script]);
      const dir = path.join(outRoot, route.name);
      mkdirSync(dir);
      const fn = await bundleFunction(route.handler, dir);
      const [file] = writeBrowserScripts(repoRoot, [script]);
      for (const asset of route.assets!) copyFileSync(path.join(repoRoot, asset), path.join(dir, path.basename(asset)));

      const built = Buffer.from(buildBrowserScript(script).code);
      expect(readFileSync(file!).equals(built)).toBe(true);
      const result = await invoke(fn.file, route);
      expect(result.statusCode).toBe(200);
      expect(result.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(result.isBase64Encoded ?? false).toBe(false);
      expect(Buffer.from(result.body, 'utf8').equals(built)).toBe(true);
      // The function reads the script; it bundles no browser source and not the script's text.
      expect(fn.inputs.filter((i) => /(^|\/)browser\//.test(i))).toEqual([]);
      expect(fn.code).not.toContain(built.toString('utf8').slice(20, 120));
    },
    60_000,
  );

  it('fails to start where its script is not beside it, naming the missing file', async () => {
    const route = servingRoutes(browserScripts[0])[0]!;
    const dir = path.join(outRoot, 'without-assets');
    mkdirSync(dir);
    const fn = await bundleFunction(route.handler, dir);
    await expect(invoke(fn.file, route)).rejects.toThrow(/browser script checkout-page\.js was not built/);
  }, 60_000);
});

describe('the routes', () => {
  it('name a browser script in their assets only where their function serves it', () => {
    const named = allRoutes.filter((r) => r.assets?.some((a) => (browserScripts as readonly string[]).includes(a)));
    expect([...new Set(named.map((r) => r.name))].sort()).toEqual([
      'checkout-page-script',
      'dashboard-script',
      'docs-api-reference-script',
      'hosted-fields-frame-script',
      'hosted-fields-sdk',
      'portal-script',
    ]);
  });
});
