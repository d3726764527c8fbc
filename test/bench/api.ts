/**
 * Benchmark of the request path: `GET /merchants/{merchantId}` (a merchant key reading its own merchant)
 *   - through the Lambda handler called in this process with the API Gateway event the gateway builds,
 *   - through the local gateway over HTTP,
 * against raw loops on the same DynamoDB Local reading the same items (the API key item and the merchant item):
 *   - `raw GetItem`: the two items as two `GetItem`s, one after the other,
 *   - `raw BatchGetItem`: the two items in one `BatchGetItem` (what the handler sends).
 * Each is a closed loop (`--concurrency` requests in flight, default 1: a Lambda container serves one request
 * at a time) run for `--seconds` per round; after `--warmup` seconds of the same rounds (not reported), the kinds
 * take turns for `--rounds` rounds. Throughput is each kind's median round; the ratios are the median of each
 * round's ratio (rounds next to each other in time, so a change of the machine's load affects both sides alike).
 * Also counts the DynamoDB calls of each request kind of the request-path budget.
 *
 * Run: `npm run bench:api [-- --seconds 1 --rounds 15 --warmup 20 --concurrency 1]`. Prints the figures, the machine's CPU
 * count and load, and last one JSON line:
 * `{"handlerToRawRatio", "gatewayToRawRatio", "maxDynamodbCallsPerRequest", …}`. The ratios are throughput
 * against the FASTER of the two raw loops (the stricter comparison); each raw loop's ratio is printed as well.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startLocalStack } from '../../infra/local/stack.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '1' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const concurrency = Number(values.concurrency);
for (const [name, n] of Object.entries({ seconds, rounds, concurrency })) {
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
}

const loadAtStart = loadavg()[0]!;
const stack = await startLocalStack({
  port: 0,
  dynamoPort: 0,
  sqsPort: 0,
  handleSignals: true,
  env: { POWERTOOLS_LOG_LEVEL: 'ERROR' },
});
try {
  // Loaded after the stack has set this process's environment.
  const { DynamoDBClient, BatchGetItemCommand, GetItemCommand } = await import('@aws-sdk/client-dynamodb');
  const { marshall } = await import('@aws-sdk/util-dynamodb');
  const { createRootMerchant } = await import('../../shared/people/merchants.service.ts');
  const apiKeyKeys = await import('../../shared/people/api-key.entity.ts');
  const merchantKeys = await import('../../shared/people/merchant.entity.ts');
  const { apiKeyIdOf } = await import('../../shared/people/api-keys.rules.ts');
  const checkoutRoutes = await import('../../shared/checkout/routes.ts');
  const moneyRoutes = await import('../../shared/money/routes.ts');
  const peopleRoutes = await import('../../shared/people/routes.ts');
  const { handler: getMerchant } = await import('../../functions/people/merchants/get-merchant.ts');
  const { handler: createMerchant } = await import('../../functions/people/merchants/create-merchant.ts');
  const { handler: createApiKey } = await import('../../functions/people/api-keys/create-api-key.ts');
  const { handler: getOrder } = await import('../../functions/checkout/orders/get-order.ts');
  const { handler: getBalanceSummary } = await import('../../functions/money/balances/get-balance-summary.ts');
  const { invokeCounted, routeEvent } = await import('../support/dynamo-counter.ts');
  const { lambdaContext } = await import('../../infra/local/lambda.ts');

  const root = await createRootMerchant({ name: 'Bench', ownerEmail: `bench-${Date.now()}@example.com`, ownerPassword: 'benchmark password', mode: 'test' });
  const merchantPath = `/v1/public-api/merchants/${root.merchantId}`;
  const auth = { authorization: `Bearer ${root.apiKey}` };
  // The key's first use records lastUsedAt (at most once a minute); every loop below then reads only.
  const first = await fetch(`${stack.baseUrl}${merchantPath}`, { headers: auth });
  if (first.status !== 200) throw new Error(`GET merchant: ${first.status} ${await first.text()}`);

  // The raw loops: their own plain client on the same endpoint, the same two items, consistent reads as the handler.
  const raw = new DynamoDBClient({});
  const table = stack.settings.tableName;
  const keyItemKey = marshall(apiKeyKeys.apiKey(apiKeyIdOf(root.apiKey)));
  const merchantItemKey = marshall(merchantKeys.merchant(root.merchantId));
  const found = (item: unknown) => {
    if (!item) throw new Error('raw read found nothing');
  };

  const context = lambdaContext({ name: peopleRoutes.getMerchant.name, timeoutMs: 10_000, region: stack.settings.region });
  type Kind = 'rawGetItem' | 'rawBatchGetItem' | 'handler' | 'gateway';
  const kinds: Record<Kind, () => Promise<void>> = {
    rawGetItem: async () => {
      found((await raw.send(new GetItemCommand({ TableName: table, Key: keyItemKey, ConsistentRead: true }))).Item);
      found((await raw.send(new GetItemCommand({ TableName: table, Key: merchantItemKey, ConsistentRead: true }))).Item);
    },
    rawBatchGetItem: async () => {
      const out = await raw.send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: [keyItemKey, merchantItemKey], ConsistentRead: true } } }));
      if (out.Responses?.[table]?.length !== 2) throw new Error('raw batch read found less than both items');
    },
    handler: async () => {
      const event = routeEvent(peopleRoutes.getMerchant, { key: root.apiKey, params: { merchantId: root.merchantId } });
      const result = (await getMerchant(event, context)) as { statusCode?: number };
      if (result.statusCode !== 200) throw new Error(`handler answered ${result.statusCode}`);
    },
    gateway: async () => {
      const res = await fetch(`${stack.baseUrl}${merchantPath}`, { headers: auth });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`gateway answered ${res.status}`);
    },
  };

  /** Requests per second of `op` in a closed loop of `concurrency` workers for `ms`. */
  async function throughput(op: () => Promise<void>, ms: number): Promise<number> {
    let done = 0;
    const start = performance.now();
    const end = start + ms;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end) {
          await op();
          done++;
        }
      }),
    );
    return done / ((performance.now() - start) / 1000);
  }

  // Warm-up: JIT (Node's and DynamoDB Local's JVM), connections, caches.
  for (let spent = 0; spent < warmup; spent += 4 * seconds) {
    for (const op of Object.values(kinds)) await throughput(op, seconds * 1000);
  }
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, op] of Object.entries(kinds)) samples[name]!.push(await throughput(op, seconds * 1000));
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)]!;
  };
  const rps = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)])) as Record<Kind, number>;

  // DynamoDB calls per request of the request-path budget (steady state: the key has been used).
  const order = await fetch(`${stack.baseUrl}${merchantPath}/orders`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ currency: 'USD', lines: [{ description: 'Hour', unitAmount: 10, quantity: 1 }] }),
  });
  if (order.status !== 201) throw new Error(`POST order: ${order.status} ${await order.text()}`);
  const orderId = ((await order.json()) as { id: string }).id;
  const own = { key: root.apiKey, params: { merchantId: root.merchantId } };
  const counted = {
    'GET /merchants/{merchantId}': await invokeCounted(peopleRoutes.getMerchant, getMerchant, own),
    'POST /merchants': await invokeCounted(peopleRoutes.createMerchant, createMerchant, { key: root.apiKey, body: { name: 'Bench sub' } }),
    'POST /merchants/{merchantId}/api-keys': await invokeCounted(peopleRoutes.createApiKey, createApiKey, { ...own, body: { name: 'bench' } }),
    'GET /merchants/{merchantId}/orders/{orderId}': await invokeCounted(checkoutRoutes.getOrder, getOrder, {
      key: root.apiKey,
      params: { ...own.params, orderId },
    }),
    'GET /merchants/{merchantId}/balances/summary': await invokeCounted(moneyRoutes.getBalanceSummary, getBalanceSummary, own),
  };
  const callsPerRequest: Record<string, number> = {};
  for (const [name, answer] of Object.entries(counted)) {
    if (answer.status >= 300) throw new Error(`${name} answered ${answer.status}`);
    callsPerRequest[name] = answer.calls.length;
  }
  const subId = (counted['POST /merchants'].json as { id: string }).id;
  const sub = await invokeCounted(peopleRoutes.getMerchant, getMerchant, { key: root.apiKey, params: { merchantId: subId } });
  callsPerRequest['GET /merchants/{merchantId} (sub-merchant)'] = sub.calls.length;

  const round2 = (n: number) => Math.round(n * 100) / 100;
  /** The median over rounds of `kind`'s throughput divided by `over`'s in the same round. */
  const ratio = (kind: Kind, over: (round: number) => number) => round2(median(samples[kind]!.map((x, i) => x / over(i))));
  const fastestRaw = (i: number) => Math.max(samples.rawGetItem![i]!, samples.rawBatchGetItem![i]!);
  const figures = {
    handlerToRawRatio: ratio('handler', fastestRaw),
    gatewayToRawRatio: ratio('gateway', fastestRaw),
    handlerToRawGetItemRatio: ratio('handler', (i) => samples.rawGetItem![i]!),
    handlerToRawBatchGetItemRatio: ratio('handler', (i) => samples.rawBatchGetItem![i]!),
    maxDynamodbCallsPerRequest: Math.max(...Object.values(callsPerRequest)),
    requestsPerSecond: Object.fromEntries(Object.entries(rps).map(([k, v]) => [k, Math.round(v)])),
    dynamodbCallsPerRequest: callsPerRequest,
    concurrency,
    seconds,
    rounds,
    warmup,
    cpus: cpus().length,
    loadAverage1mAtStart: round2(loadAtStart),
    loadAverage1mAtEnd: round2(loadavg()[0]!),
  };

  console.log(
    `\nGET merchant, ${concurrency} in flight, median of ${rounds} rounds of ${seconds}s (${cpus().length} CPUs, 1-minute load ${loadAtStart.toFixed(2)} at start, now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}):`,
  );
  for (const [name, value] of Object.entries(rps))
    console.log(`  ${name.padEnd(16)} ${value.toFixed(0).padStart(6)} req/s  (rounds: ${samples[name]!.map((x) => x.toFixed(0)).join(', ')})`);
  console.log("Median of the rounds' ratios:");
  console.log(`  handler / fastest raw loop: ${figures.handlerToRawRatio}   gateway / fastest raw loop: ${figures.gatewayToRawRatio}`);
  console.log(`  handler / raw GetItem ×2: ${figures.handlerToRawGetItemRatio}   handler / raw BatchGetItem: ${figures.handlerToRawBatchGetItemRatio}`);
  console.log('DynamoDB calls per request:');
  for (const [name, n] of Object.entries(callsPerRequest)) console.log(`  ${String(n).padStart(2)}  ${name}`);
  console.log(JSON.stringify(figures));
  raw.destroy();
} finally {
  await stack.stop();
}
