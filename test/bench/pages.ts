/**
 * Benchmark of the dashboard's pages, on the merchant home page (the page every session opens first):
 *   - server time through the local gateway over HTTP, signed in by the session cookie, one request in flight, after
 *     `--warmup` seconds of the same: p50 and p95; and the handler called in this process (no HTTP);
 *   - its DynamoDB calls and round trips (calls sent together are one trip), steady state, from the session check on;
 *   - its weight: the HTML, the stylesheet and the script it loads, each gzip-compressed.
 *
 * The merchant is new (no payments yet): the page makes the same calls whatever it holds, as the lists it reads are
 * one page each (the latest five payments, the balances of its few currencies).
 *
 * Goals (issue #19): at most 2 DynamoDB round trips beyond the session check; HTML + CSS + JS ≤ 100 KB compressed.
 *
 * Run: `npm run bench:pages [-- --requests 500 --warmup 5]`. Prints the figures, the machine's CPU count and load, and
 * last one JSON line.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { startLocalStack } from '../../infra/local/stack.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '500' },
    warmup: { type: 'string', default: '5' },
  },
});
const requests = Number(values.requests);
const warmup = Number(values.warmup);
for (const [name, n] of Object.entries({ requests, warmup })) {
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number ≥ 0`);
}

const GOAL_ROUND_TRIPS_BEYOND_SESSION = 2;
const GOAL_WEIGHT_BYTES = 100 * 1024;

const loadAtStart = loadavg()[0]!;
const stack = await startLocalStack({ port: 0, dynamoPort: 0, sqsPort: 0, handleSignals: true, env: { POWERTOOLS_LOG_LEVEL: 'ERROR' } });
try {
  // Loaded after the stack has set this process's environment.
  const { createRootMerchant } = await import('../../shared/people/merchants.service.ts');
  const pages = await import('../../shared/dashboard/home/routes.ts');
  const { handler: home } = await import('../../functions/dashboard/home/home.ts');
  const { routeEvent, roundTripsOf, timeDynamoCalls } = await import('../support/dynamo-counter.ts');
  const { lambdaContext } = await import('../../infra/local/lambda.ts');
  const { SESSION_COOKIE } = await import('../../shared/platform/http/session-cookie.ts');

  const password = 'benchmark password';
  const ownerEmail = `bench-${Date.now()}@example.com`;
  const root = await createRootMerchant({ name: 'Bench', ownerEmail, ownerPassword: password, mode: 'test' });
  const signIn = await fetch(`${stack.baseUrl}/v1/dashboard/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: ownerEmail, password }),
  });
  const session = ((await signIn.json()) as { token: string }).token;
  const cookie = `${SESSION_COOKIE}=${session}`;
  const origin = new URL(stack.baseUrl).origin;
  const homeUrl = `${origin}/dashboard/merchants/${root.merchantId}`;

  // A context per invocation: its remaining time counts from when it is made, as a Lambda invocation's does.
  const context = () => lambdaContext({ name: 'bench', timeoutMs: 10_000, region: stack.settings.region });
  const event = () => routeEvent(pages.homePage, { params: { merchantId: root.merchantId }, headers: { cookie } });
  const kinds = {
    gateway: async () => {
      const res = await fetch(homeUrl, { headers: { cookie } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`the home page answered ${res.status}`);
    },
    handler: async () => {
      const result = (await home(event(), context())) as { statusCode?: number };
      if (result.statusCode !== 200) throw new Error(`the home handler answered ${result.statusCode}`);
    },
  };

  const warmUntil = performance.now() + warmup * 1000;
  do for (const op of Object.values(kinds)) await op();
  while (performance.now() < warmUntil);

  const samples: Record<keyof typeof kinds, number[]> = { gateway: [], handler: [] };
  for (let i = 0; i < requests; i++) {
    for (const [kind, op] of Object.entries(kinds) as Array<[keyof typeof kinds, () => Promise<void>]>) {
      const started = performance.now();
      await op();
      samples[kind].push(performance.now() - started);
    }
  }
  const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const stats = Object.fromEntries(
    Object.entries(samples).map(([k, xs]) => [k, { p50: round2(quantile(xs, 0.5)), p95: round2(quantile(xs, 0.95)) }]),
  ) as Record<keyof typeof kinds, { p50: number; p95: number }>;

  // Calls and round trips, steady state; the first trip is the session check (its one GetItem).
  const { result, calls } = await timeDynamoCalls(() => home(event(), context()) as Promise<{ statusCode?: number; body?: string }>);
  if (result.statusCode !== 200) throw new Error('the counted request failed');
  const trips = roundTripsOf(calls);
  const roundTripsBeyondSession = trips.length - 1;

  const gz = (text: string) => gzipSync(Buffer.from(text)).length;
  const [css, js] = await Promise.all(['dashboard.css', 'dashboard.js'].map(async (f) => gz(await (await fetch(`${origin}/dashboard/assets/${f}`)).text())));
  const weight = { html: gz(result.body ?? ''), css: css!, js: js!, total: gz(result.body ?? '') + css! + js! };

  const figures = {
    homeP50Ms: stats.gateway.p50,
    homeP95Ms: stats.gateway.p95,
    handlerP50Ms: stats.handler.p50,
    handlerP95Ms: stats.handler.p95,
    dynamodbCalls: calls.map((c) => c.name),
    roundTrips: trips,
    roundTripsBeyondSession,
    weightGzipBytes: weight,
    goals: {
      [`DynamoDB round trips beyond the session check ≤ ${GOAL_ROUND_TRIPS_BEYOND_SESSION}`]: roundTripsBeyondSession <= GOAL_ROUND_TRIPS_BEYOND_SESSION,
      [`HTML + CSS + JS ≤ ${GOAL_WEIGHT_BYTES / 1024} KB gzip`]: weight.total <= GOAL_WEIGHT_BYTES,
    },
    requests,
    warmup,
    cpus: cpus().length,
    loadAverage1mAtStart: round2(loadAtStart),
    loadAverage1mAtEnd: round2(loadavg()[0]!),
  };
  console.log(
    `\n${requests} requests of each, one in flight (${cpus().length} CPUs, 1-minute load ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} now):`,
  );
  console.log(`  GET /dashboard/merchants/{merchantId} (gateway)   p50 ${stats.gateway.p50} ms   p95 ${stats.gateway.p95} ms`);
  console.log(`  its handler in-process                           p50 ${stats.handler.p50} ms   p95 ${stats.handler.p95} ms`);
  console.log(`DynamoDB round trips: ${trips.map((t) => t.join(' + ')).join(' → ')}`);
  console.log(`Weight (gzip): HTML ${weight.html} B, CSS ${weight.css} B, JS ${weight.js} B, total ${weight.total} B`);
  for (const [goal, met] of Object.entries(figures.goals)) console.log(`  ${met ? 'met    ' : 'NOT MET'}  ${goal}`);
  console.log(JSON.stringify(figures));
} finally {
  await stack.stop();
}
