/**
 * `@modelcontextprotocol/conformance`'s server scenarios that apply to this endpoint, run by the suite's own CLI
 * against the run's local stack. The suite sends no `Authorization` header, so it talks to a loopback proxy that
 * adds a user MCP token's and passes everything else through as sent (`Host` and `Origin` included, which the
 * DNS-rebinding scenario forges). docs/design/mcp-oauth.md ("MCP conformance") lists the scenarios that do not apply, and why.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agent, origin } from '../support.ts';

/** The suite's CLI, as its package's `bin` names it. */
const packageJson = fileURLToPath(import.meta.resolve('@modelcontextprotocol/conformance/package.json'));
const cli = path.join(path.dirname(packageJson), (JSON.parse(readFileSync(packageJson, 'utf8')) as { bin: { conformance: string } }).bin.conformance);
const scenarios = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

let proxy: http.Server;
let proxyUrl: string;
let outDir: string;

/** A loopback proxy to the run's gateway that sends `token` as `Authorization: Bearer`. */
function startProxy(token: string): Promise<http.Server> {
  const target = new URL(origin());
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${token}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  proxy = await startProxy((await agent()).token);
  proxyUrl = `http://localhost:${(proxy.address() as AddressInfo).port}/api/mcp`;
  outDir = mkdtempSync(path.join(os.tmpdir(), 'mor-mcp-conformance-'));
});

afterAll(async () => {
  await new Promise((resolve) => proxy?.close(resolve));
  proxy?.closeAllConnections();
  rmSync(outDir, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

describe('the MCP conformance suite (server scenarios that apply)', () => {
  it.each(scenarios)('passes %s', async (scenario) => {
    const dir = mkdtempSync(path.join(outDir, `${scenario}-`));
    const run = await promisify(execFile)(process.execPath, [cli, 'server', '--url', proxyUrl, '--scenario', scenario, '-o', dir], {
      cwd: dir,
      timeout: 60_000,
    }).catch((e: { code?: number; stdout?: string; stderr?: string }) => e);
    const [resultDir] = readdirSync(dir).filter((name) => name.startsWith(`server-${scenario}-`));
    const checks = JSON.parse(readFileSync(path.join(dir, resultDir!, 'checks.json'), 'utf8')) as Check[];
    expect(checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage}`)).toEqual([]);
    expect(checks.filter((c) => c.status === 'SUCCESS').length).toBeGreaterThan(0);
    expect('code' in run ? run.code : 0).toBe(0);
  });
});
