/**
 * The OpenAPI linter judges the sandbox document: `redocly lint` with the checked-in `redocly.yaml` (the
 * `recommended` rules, each relaxed one explained there), offline, must find no error and no warning.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiJson } from '../../../infra/openapi-asset.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');
const dir = mkdtempSync(path.join(tmpdir(), 'mor-openapi-lint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

describe('the OpenAPI linter', () => {
  it('passes the sandbox document with no error and no warning', async () => {
    const file = path.join(dir, 'openapi-sandbox.json');
    writeFileSync(file, openApiJson('sandbox'));
    const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
    const run = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--config', path.join(repoRoot, 'redocly.yaml'), '--format=json'], {
      cwd: repoRoot,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
    const report = JSON.parse(run.stdout) as LintReport;
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    expect(problems, problems.join('\n')).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);
});
