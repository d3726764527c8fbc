/**
 * What the functions print locally and deployed. Locally (`POWERTOOLS_METRICS_DISABLED`, which the local stack sets)
 * an invocation's metrics are dropped without Powertools' warning about invocations that recorded none; deployed
 * (no such variable) Powertools publishes them as before, warning included. The local functions log at WARN unless
 * `POWERTOOLS_LOG_LEVEL` says otherwise, and the gateway's access line names method, path, status and time only.
 */
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accessLine } from '../../../infra/local/gateway.ts';
import { lambdaContext } from '../../../infra/local/lambda.ts';
import { defaultSettings, localEnv } from '../../../infra/local/settings.ts';
import { withEnv } from '../../support/env.ts';

type Observability = typeof import('../../../shared/platform/observability.ts');

/** A fresh copy of the observability module (its Powertools singletons), made with `env` set over this process's. */
function observabilityWith(env: Record<string, string | undefined>): Promise<Observability> {
  return withEnv(env, () => {
    vi.resetModules();
    return import('../../../shared/platform/observability.ts');
  });
}

/** What `run` writes to stdout and stderr (kept off the terminal). */
async function output(run: () => Promise<unknown>): Promise<{ stdout: string; stderr: string }> {
  const written = { stdout: '', stderr: '' };
  const spies = (['stdout', 'stderr'] as const).map((name) =>
    vi.spyOn(process[name], 'write').mockImplementation((chunk: string | Uint8Array) => {
      written[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    }),
  );
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return written;
}

const context = (): Context => lambdaContext({ name: 'observability-test', timeoutMs: 5_000, region: 'us-east-1' });

/** One function that records a metric and one that records none, as a route and a consumer are. */
function functions({ observed, metrics }: Observability) {
  return {
    counting: observed<unknown, string>().handler(async () => {
      metrics.addMetric('TestCounted', MetricUnit.Count, 1);
      return 'ok';
    }),
    silent: observed<unknown, string>().handler(async () => 'ok'),
  };
}

afterEach(() => {
  vi.resetModules();
});

describe('metrics of the functions', () => {
  it('locally (metrics off): no warning about an invocation without metrics, nothing published, nothing kept', async () => {
    expect(process.env.POWERTOOLS_METRICS_DISABLED).toBe('true'); // the local stack's environment
    const observability = await observabilityWith({});
    expect(observability.metrics.off).toBe(true);
    const { counting, silent } = functions(observability);
    const written = await output(async () => {
      expect(await silent(undefined, context())).toBe('ok');
      expect(await counting(undefined, context())).toBe('ok');
      expect(await silent(undefined, context())).toBe('ok');
    });
    expect(written.stderr).not.toContain('No application metrics');
    expect(written.stdout).not.toContain('No application metrics');
    expect(written.stdout).not.toContain('TestCounted');
    expect(observability.metrics.hasStoredMetrics()).toBe(false);
  });

  it('deployed (metrics on): published as Powertools publishes them, its warning for none unchanged', async () => {
    const observability = await observabilityWith({ POWERTOOLS_METRICS_DISABLED: undefined });
    expect(observability.metrics.off).toBe(false);
    const { counting, silent } = functions(observability);
    const published = await output(() => counting(undefined, context()));
    const emf = JSON.parse(published.stdout.split('\n').find((l) => l.includes('"_aws"'))!) as { TestCounted?: number };
    expect(emf.TestCounted).toBe(1);
    const none = await output(() => silent(undefined, context()));
    expect(`${none.stdout}${none.stderr}`).toContain('No application metrics to publish');
  });
});

describe('the local functions and gateway', () => {
  it('log at WARN unless POWERTOOLS_LOG_LEVEL says otherwise', () => {
    expect(localEnv(defaultSettings, {}).POWERTOOLS_LOG_LEVEL).toBe('WARN');
    expect(localEnv(defaultSettings, { POWERTOOLS_LOG_LEVEL: 'DEBUG' }).POWERTOOLS_LOG_LEVEL).toBe('DEBUG');
    expect(localEnv(defaultSettings, {}).POWERTOOLS_METRICS_DISABLED).toBe('true');
  });

  it("print one access line per request: the route key (never the concrete path's secrets), status and milliseconds", () => {
    expect(accessLine('GET /api/health', 'GET', '/api/health', 200, 3.4)).toBe('GET /api/health 200 3 ms');
    const token = 'b322806e-1c2d-4e5f-8a9b-0c1d2e3f4a5b.2922b1120427b90c065a110f37d532a9';
    expect(accessLine('GET /join/{token}', 'GET', `/join/${token}`, 200, 7)).toBe('GET /join/{token} 200 7 ms');
    // A request no route took: its path, without the query string.
    expect(accessLine(undefined, 'POST', '/api/nowhere?code=secret', 404, 12.6)).toBe('POST /api/nowhere 404 13 ms');
  });
});
