/**
 * Bundling is quiet: a function's code is bundled without CDK's "Bundling asset …" line on stderr (one per function
 * otherwise, hundreds on `cdk synth -q`), while the bundle is still built and staged, and other output still prints.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { stageConfig } from '../../infra/config.ts';
import { bundlingNotice, LambdaFunction, withoutBundlingNotices } from '../../infra/constructs/lambda-function.ts';
import { routeList } from '../../shared/routes/index.ts';
import { removeOutdir, tempOutdir } from './synth.ts';

const outdir = tempOutdir();
afterAll(() => removeOutdir(outdir));
afterEach(() => {
  vi.restoreAllMocks();
});

/** What reaches stderr while `run` runs (kept off the terminal). */
function stderrOf(run: () => void): string {
  let written = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  });
  try {
    run();
  } finally {
    vi.restoreAllMocks();
  }
  return written;
}

describe('bundling a function', () => {
  it("builds and stages the bundle without CDK's Bundling asset line", () => {
    const stack = new Stack(new App({ outdir }), 'Quiet');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    const health = routeList.find((r) => r.name === 'health')!;
    const written = stderrOf(() => {
      new LambdaFunction(stack, 'Fn', {
        config: stageConfig('sandbox', () => undefined, {}),
        name: 'health',
        entry: health.handler,
        timeout: Duration.seconds(10),
        table,
        tableAccess: 'none',
        // Files no other bundle of this process copies: CDK's asset cache cannot answer from an earlier bundle.
        assets: ['biome.json', 'knip.json'],
      });
    });
    expect(written).not.toMatch(/Bundling asset/);
    const staged = readdirSync(outdir)
      .filter((d) => d.startsWith('asset.'))
      .map((d) => path.join(outdir, d))
      .filter((d) => existsSync(path.join(d, 'knip.json')));
    expect(staged).toHaveLength(1);
    expect(existsSync(path.join(staged[0]!, 'index.mjs'))).toBe(true);
  });

  it('drops only that line, and puts stderr back afterwards', () => {
    const write = process.stderr.write;
    const written = stderrOf(() =>
      withoutBundlingNotices(() => {
        process.stderr.write('Bundling asset Mor-Sandbox-System/Health/Function/Code/Stage...\n');
        process.stderr.write('▲ [WARNING] something esbuild says\n');
      }),
    );
    expect(written).toBe('▲ [WARNING] something esbuild says\n');
    expect(process.stderr.write).toBe(write);
    expect(bundlingNotice.test('Bundling asset Mor-Live-Docs/DocsPage/Function/Code/Stage...\n')).toBe(true);
    expect(bundlingNotice.test('Bundling assets failed\n')).toBe(false);
  });
});
