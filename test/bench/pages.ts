/**
 * Benchmark of the server-rendered pages: the dashboard's merchant home page (the page every session opens first) and
 * the customer portal's subscriptions page (the page a portal link opens), each:
 *   - server time through the local gateway over HTTP, signed in by the session cookie, one request in flight, after
 *     `--warmup` seconds of the same: p50 and p95; and the handler called in this process (no HTTP);
 *   - its DynamoDB calls and round trips (calls sent together are one trip), steady state, from the session check on;
 *   - its weight: the HTML, the stylesheet and the script it loads, each gzip-compressed.
 *
 * The merchant is new (no payments yet): the page makes the same calls whatever it holds, as the lists it reads are
 * one page each (the latest five payments, the balances of its few currencies).
 *
 * Goals (issue #19, and the same for the portal's page): at most 2 DynamoDB round trips beyond the session check;
 * HTML + CSS + JS ≤ 100 KB compressed.
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
  const { handler: homeHandler } = await import('../../functions/dashboard/home/home.ts');
  const { handler: portalHandler } = await import('../../functions/portal/subscriptions-page.ts');
  const portalRoutes = await import('../../shared/portal/routes.ts');
  const { createPortalLink } = await import('../../shared/portal/portal-sessions.service.ts');
  const { getMerchant } = await import('../../shared/people/index.ts');
  const { tenDollarPlan } = await import('../support/seed.ts');
  const { createCustomer } = await import('../../shared/customers/customers.service.ts');
  const { sandboxCardToken } = await import('../support/cards.ts');
  const { attachPaymentInstrument } = await import('../../shared/customers/payment-instruments.service.ts');
  const { createSubscription } = await import('../../shared/subscriptions/subscriptions.service.ts');
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
  const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const gz = (text: string) => gzipSync(Buffer.from(text)).length;
  type Invoke = () => Promise<{ statusCode?: number; body?: string }>;

  /**
   * One page measured: through the gateway and its handler in-process, one request in flight, after the warm-up;
   * its DynamoDB calls and round trips (the first trip is the session check); its weight with its `assets`.
   */
  async function measure(url: string, cookie: string, invoke: Invoke, assets: readonly string[]) {
    const kinds = {
      gateway: async () => {
        const res = await fetch(url, { headers: { cookie } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      },
      handler: async () => {
        const result = await invoke();
        if (result.statusCode !== 200) throw new Error(`the handler of ${url} answered ${result.statusCode}`);
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
    const stat = (xs: number[]) => ({ p50: round2(quantile(xs, 0.5)), p95: round2(quantile(xs, 0.95)) });
    const { result, calls } = await timeDynamoCalls(invoke);
    if (result.statusCode !== 200) throw new Error('the counted request failed');
    const trips = roundTripsOf(calls);
    const html = gz(result.body ?? '');
    const assetSizes = await Promise.all(assets.map(async (a) => gz(await (await fetch(`${origin}${a}`)).text())));
    return {
      gateway: stat(samples.gateway),
      handler: stat(samples.handler),
      calls: calls.map((c) => c.name),
      trips,
      roundTripsBeyondSession: trips.length - 1,
      weight: { html, assets: assetSizes, total: html + assetSizes.reduce((a, b) => a + b, 0) },
    };
  }

  const homeEvent = () => routeEvent(pages.homePage, { params: { merchantId: root.merchantId }, headers: { cookie } });
  const home = await measure(homeUrl, cookie, () => homeHandler(homeEvent(), context()) as ReturnType<Invoke>, [
    '/dashboard/assets/dashboard.css',
    '/dashboard/assets/dashboard.js',
  ]);

  // The customer portal's subscriptions page: a customer in California with a card and a monthly subscription of
  // 10 USD, signed in through a portal link.
  const merchant = (await getMerchant(root.merchantId))!;
  const plan = await tenDollarPlan(merchant.id, 'month', { product: 'Seat', plan: 'Monthly' });
  const customer = await createCustomer(merchant, {
    email: `bench-portal-${Date.now()}@example.com`,
    primaryAddress: { customerAddress: { country: 'US', region: 'CA', city: 'San Francisco', zip: '94103' } },
  });
  const token = await sandboxCardToken(merchant.id);
  const instrument = await attachPaymentInstrument(merchant.id, customer.id, token.id);
  await createSubscription(merchant, {
    customerId: customer.id,
    paymentInstrumentId: instrument.id,
    items: [{ plan: plan.id, quantity: 1 }],
    isTrialOnly: false,
  });
  const link = await createPortalLink(merchant, customer.id, {});
  const opened = await fetch(link.url, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'open=portal',
  });
  const portalCookie = opened.headers.getSetCookie()[0]!.split(';')[0]!;
  const portalUrl = `${origin}/portal/${merchant.id}/subscriptions`;
  const portalEvent = () => routeEvent(portalRoutes.portalSubscriptionsPage, { params: { merchantId: merchant.id }, headers: { cookie: portalCookie } });
  const portal = await measure(portalUrl, portalCookie, () => portalHandler(portalEvent(), context()) as ReturnType<Invoke>, [
    '/dashboard/assets/dashboard.css',
  ]);

  const figures = {
    homeP50Ms: home.gateway.p50,
    homeP95Ms: home.gateway.p95,
    handlerP50Ms: home.handler.p50,
    handlerP95Ms: home.handler.p95,
    dynamodbCalls: home.calls,
    roundTrips: home.trips,
    roundTripsBeyondSession: home.roundTripsBeyondSession,
    weightGzipBytes: { html: home.weight.html, css: home.weight.assets[0]!, js: home.weight.assets[1]!, total: home.weight.total },
    portalP50Ms: portal.gateway.p50,
    portalP95Ms: portal.gateway.p95,
    portalHandlerP50Ms: portal.handler.p50,
    portalHandlerP95Ms: portal.handler.p95,
    portalDynamodbCalls: portal.calls,
    portalRoundTrips: portal.trips,
    portalRoundTripsBeyondSession: portal.roundTripsBeyondSession,
    portalWeightGzipBytes: { html: portal.weight.html, css: portal.weight.assets[0]!, total: portal.weight.total },
    goals: {
      [`DynamoDB round trips beyond the session check ≤ ${GOAL_ROUND_TRIPS_BEYOND_SESSION}`]: home.roundTripsBeyondSession <= GOAL_ROUND_TRIPS_BEYOND_SESSION,
      [`HTML + CSS + JS ≤ ${GOAL_WEIGHT_BYTES / 1024} KB gzip`]: home.weight.total <= GOAL_WEIGHT_BYTES,
      [`portal: DynamoDB round trips beyond the session check ≤ ${GOAL_ROUND_TRIPS_BEYOND_SESSION}`]:
        portal.roundTripsBeyondSession <= GOAL_ROUND_TRIPS_BEYOND_SESSION,
      [`portal: HTML + CSS ≤ ${GOAL_WEIGHT_BYTES / 1024} KB gzip`]: portal.weight.total <= GOAL_WEIGHT_BYTES,
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
  for (const [name, m] of [
    ['GET /dashboard/merchants/{merchantId}', home],
    ['GET /portal/{merchantId}/subscriptions', portal],
  ] as const) {
    console.log(`  ${name} (gateway)   p50 ${m.gateway.p50} ms   p95 ${m.gateway.p95} ms`);
    console.log(`    its handler in-process   p50 ${m.handler.p50} ms   p95 ${m.handler.p95} ms`);
    console.log(`    DynamoDB round trips: ${m.trips.map((t) => t.join(' + ')).join(' → ')}`);
    console.log(`    weight (gzip): HTML ${m.weight.html} B, assets ${m.weight.assets.join(' + ')} B, total ${m.weight.total} B`);
  }
  for (const [goal, met] of Object.entries(figures.goals)) console.log(`  ${met ? 'met    ' : 'NOT MET'}  ${goal}`);
  console.log(JSON.stringify(figures));
} finally {
  await stack.stop();
}
