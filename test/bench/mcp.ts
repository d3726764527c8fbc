/**
 * Benchmark of the MCP endpoint: `tools/call get_my_merchant` with a user MCP token against the REST route that
 * answers the same merchant, `GET /api/v1/public-api/merchants/{merchantId}` with a merchant key, in the same run:
 *   - latency through the local gateway over HTTP, one request in flight (a Lambda container serves one at a time),
 *     the two kinds alternating request by request so a change of the machine's load touches both alike: p50 and
 *     p95 of each, after `--warmup` seconds of the same (not reported);
 *   - the same through each handler called in this process (no HTTP), for the share of the gateway;
 *   - DynamoDB calls per request of each (steady state: token and key used within the minute).
 *
 * Goals (issue #18): the MCP call's p95 at most 1.5 × the REST route's; its DynamoDB calls at most the REST route's + 1.
 *
 * Run: `npm run bench:mcp [-- --requests 2000 --warmup 10]`. Prints the figures, the machine's CPU count and load, and
 * last one JSON line: `{"mcpP50Ms", "mcpP95Ms", "restP50Ms", "restP95Ms", "p95Ratio", "mcpDynamodbCallsPerCall",
 * "restDynamodbCallsPerRequest", "goals", …}`.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startLocalStack } from '../../infra/local/stack.ts';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '10' },
  },
});
const requests = Number(values.requests);
const warmup = Number(values.warmup);
for (const [name, n] of Object.entries({ requests, warmup })) {
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number ≥ 0`);
}

const GOAL_P95_RATIO = 1.5;
const GOAL_EXTRA_CALLS = 1;

const loadAtStart = loadavg()[0]!;
const stack = await startLocalStack({ port: 0, dynamoPort: 0, sqsPort: 0, handleSignals: true, env: { POWERTOOLS_LOG_LEVEL: 'ERROR' } });
try {
  // Loaded after the stack has set this process's environment.
  const { createRootMerchant } = await import('../../shared/people/merchants.service.ts');
  const peopleRoutes = await import('../../shared/people/routes.ts');
  const agentRoutes = await import('../../shared/agents/routes.ts');
  const { handler: getMerchant } = await import('../../functions/people/merchants/get-merchant.ts');
  const { handler: mcp } = await import('../../functions/agents/mcp.ts');
  const { invokeCounted, routeEvent } = await import('../support/dynamo-counter.ts');
  const { lambdaContext } = await import('../../infra/local/lambda.ts');

  const password = 'benchmark password';
  const ownerEmail = `bench-${Date.now()}@example.com`;
  const root = await createRootMerchant({ name: 'Bench', ownerEmail, ownerPassword: password, mode: 'test' });
  const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const answer = (await res.json()) as Record<string, unknown>;
    if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  // The owner signs in and mints an MCP token through the dashboard route, as a person would.
  const session = (await post(`${stack.baseUrl}/v1/dashboard/sessions`, { email: ownerEmail, password })).token as string;
  const token = (
    await post(
      `${stack.baseUrl}/v1/dashboard/merchants/${root.merchantId}/mcp-tokens`,
      { name: 'bench', scopes: ['merchant:read'] },
      { authorization: `Bearer ${session}` },
    )
  ).token as string;

  const mcpUrl = `${stack.baseUrl}/mcp`;
  const restUrl = `${stack.baseUrl}/v1/public-api/merchants/${root.merchantId}`;
  const mcpHeaders = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };
  // The handler's event gets its content type from `routeEvent`, which sets it for a body.
  const { 'content-type': _, ...handlerHeaders } = mcpHeaders;
  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_my_merchant', arguments: {} } };
  const callBody = JSON.stringify(call);

  type Kind = 'mcp' | 'rest' | 'mcpHandler' | 'restHandler';
  const context = lambdaContext({ name: 'bench', timeoutMs: 10_000, region: stack.settings.region });
  const kinds: Record<Kind, () => Promise<void>> = {
    mcp: async () => {
      const res = await fetch(mcpUrl, { method: 'POST', headers: mcpHeaders, body: callBody });
      const body = (await res.json()) as { result?: { isError?: boolean } };
      if (res.status !== 200 || !body.result || body.result.isError) throw new Error(`MCP answered ${res.status} ${JSON.stringify(body)}`);
    },
    rest: async () => {
      const res = await fetch(restUrl, { headers: { authorization: `Bearer ${root.apiKey}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`REST answered ${res.status}`);
    },
    mcpHandler: async () => {
      const result = (await mcp(routeEvent(agentRoutes.mcp, { headers: handlerHeaders, body: call }), context)) as { statusCode?: number };
      if (result.statusCode !== 200) throw new Error(`MCP handler answered ${result.statusCode}`);
    },
    restHandler: async () => {
      const event = routeEvent(peopleRoutes.getMerchant, { key: root.apiKey, params: { merchantId: root.merchantId } });
      const result = (await getMerchant(event, context)) as { statusCode?: number };
      if (result.statusCode !== 200) throw new Error(`REST handler answered ${result.statusCode}`);
    },
  };

  // Warm-up: JIT (Node's and DynamoDB Local's JVM), connections, the SDK's first schemas; first uses record lastUsedAt.
  const warmUntil = performance.now() + warmup * 1000;
  do for (const op of Object.values(kinds)) await op();
  while (performance.now() < warmUntil);

  const samples: Record<Kind, number[]> = { mcp: [], rest: [], mcpHandler: [], restHandler: [] };
  for (let i = 0; i < requests; i++) {
    for (const [kind, op] of Object.entries(kinds) as Array<[Kind, () => Promise<void>]>) {
      const started = performance.now();
      await op();
      samples[kind].push(performance.now() - started);
    }
  }
  const quantile = (xs: number[], q: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  };
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const stats = Object.fromEntries(
    Object.entries(samples).map(([k, xs]) => [k, { p50: round2(quantile(xs, 0.5)), p95: round2(quantile(xs, 0.95)) }]),
  ) as Record<Kind, { p50: number; p95: number }>;

  // DynamoDB calls per request, steady state (the token and the key were used within the minute).
  const mcpCounted = await invokeCounted(agentRoutes.mcp, mcp, { headers: handlerHeaders, body: call });
  const restCounted = await invokeCounted(peopleRoutes.getMerchant, getMerchant, { key: root.apiKey, params: { merchantId: root.merchantId } });
  if (mcpCounted.status !== 200 || restCounted.status !== 200) throw new Error('a counted request failed');

  const p95Ratio = round2(stats.mcp.p95 / stats.rest.p95);
  const figures = {
    mcpP50Ms: stats.mcp.p50,
    mcpP95Ms: stats.mcp.p95,
    restP50Ms: stats.rest.p50,
    restP95Ms: stats.rest.p95,
    p95Ratio,
    handlerP95Ratio: round2(stats.mcpHandler.p95 / stats.restHandler.p95),
    mcpDynamodbCallsPerCall: mcpCounted.calls.length,
    restDynamodbCallsPerRequest: restCounted.calls.length,
    mcpDynamodbCalls: mcpCounted.calls,
    restDynamodbCalls: restCounted.calls,
    goals: {
      [`p95 ≤ ${GOAL_P95_RATIO} × REST`]: p95Ratio <= GOAL_P95_RATIO,
      [`DynamoDB calls ≤ REST + ${GOAL_EXTRA_CALLS}`]: mcpCounted.calls.length <= restCounted.calls.length + GOAL_EXTRA_CALLS,
    },
    latencyMs: stats,
    requests,
    warmup,
    cpus: cpus().length,
    loadAverage1mAtStart: round2(loadAtStart),
    loadAverage1mAtEnd: round2(loadavg()[0]!),
  };

  console.log(
    `\n${requests} requests of each kind, one in flight, kinds alternating (${cpus().length} CPUs, 1-minute load ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} now):`,
  );
  console.log(`  MCP tools/call get_my_merchant (gateway)   p50 ${stats.mcp.p50} ms   p95 ${stats.mcp.p95} ms`);
  console.log(`  GET /merchants/{merchantId} (gateway)      p50 ${stats.rest.p50} ms   p95 ${stats.rest.p95} ms`);
  console.log(`  MCP handler in-process                     p50 ${stats.mcpHandler.p50} ms   p95 ${stats.mcpHandler.p95} ms`);
  console.log(`  REST handler in-process                    p50 ${stats.restHandler.p50} ms   p95 ${stats.restHandler.p95} ms`);
  console.log(
    `DynamoDB calls: MCP ${mcpCounted.calls.join(', ')} (${mcpCounted.calls.length}); REST ${restCounted.calls.join(', ')} (${restCounted.calls.length})`,
  );
  for (const [goal, met] of Object.entries(figures.goals)) console.log(`  ${met ? 'met    ' : 'NOT MET'}  ${goal}`);
  console.log(JSON.stringify(figures));
} finally {
  await stack.stop();
}
