/**
 * Benchmark of the local webhook pipeline: outbox write → DynamoDB stream poller → fan-out → SQS → sender →
 * signed POST to a receiver on loopback. Run: `npm run bench:webhooks` (both runs below, one stack), or one run
 * with `-- --mode burst` / `-- --mode steady`.
 *
 * - burst: `--events` (default 1,000) `payment.completed` events written as fast as `--concurrency` (20) writers
 *   can; events per second (delivered / time from the first write to the last arrival); where that time went: how
 *   long the writers took (`writesMs`), what was delivered meanwhile, and the pace of the deliveries after the last
 *   write (`afterWritesEventsPerSecond`: the pipeline alone on the machine); and CPU ms per event
 *   of this Node process (`process.cpuUsage`: pollers, handlers, SQS server, receiver) and of the DynamoDB Local
 *   JVM (`/proc/<pid>/stat` utime + stime), and the cores each kept busy over the run (`coresBusy`: CPU time over
 *   wall time; DynamoDB Local runs its writes one at a time, so about 1 is its ceiling on any machine).
 * - steady: `--steady-events` (1,000) events at `--rate` (25) per second; p50/p95/p99 latency from each
 *   event's outbox write to its arrival at the receiver.
 *
 * `--queue-concurrency N` sets the most batches each queue's poller hands to its function at once, for every queue.
 * Without it each queue starts as its deployed mapping does (`queueStartConcurrency`): the sender's, in provisioned
 * mode with 2 pollers, 20 batches at once; a queue in standard mode 5, what Lambda starts one with (Lambda then adds
 * up to 300 batches a minute while messages wait, which the local stack does not model).
 * `--indexes pipeline` runs it on a table with only the index the pipeline's items use (gsi1), to measure what the
 * table's other indexes cost DynamoDB Local on every item (the JSON line says which table, `indexes`).
 *
 * Before them, `--warmup` (200) events go through the pipeline unmeasured, so the figures are those of a warm
 * DynamoDB Local JVM and warm handlers (as deployed, where neither starts per event).
 *
 * Both runs count the calls this process makes to DynamoDB Local (its API, not the stream's; the benchmark's own
 * outbox writes and its reads of the delivery records left out) from the first write until the last delivery record
 * is written, and to the SQS server (the fan-out's sends and the queue poller's receives and deletes, idle long
 * polls included) until the last arrival, per delivered event. They are counted on the wire (Node's `http.client.request.start` diagnostics channel, by the
 * `X-Amz-Target` of each request). The output ends with one JSON line of the figures; its
 * `dynamodbCallsPerEvent` / `sqsCallsPerEvent` are the larger of the two runs.
 */
import { processCpuMs } from '../support/process-cpu.ts';
import { subscribe } from 'node:diagnostics_channel';
import { createServer, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { startLocalStack } from '../../infra/local/stack.ts';
import { consumers, queueStartConcurrency, type QueueConsumerDef } from '../../infra/consumers.ts';

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'both' },
    warmup: { type: 'string', default: '200' },
    events: { type: 'string', default: '1000' },
    'steady-events': { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '20' },
    rate: { type: 'string', default: '25' },
    'queue-concurrency': { type: 'string' },
    indexes: { type: 'string', default: 'all' },
  },
});
// `pipeline`: the table with only the index the pipeline's items use (the events' listing, gsi1), to measure what the
// others cost DynamoDB Local on each item (docs/performance.md, "Where DynamoDB Local's CPU goes"); `all`: the table.
if (!['all', 'pipeline'].includes(values.indexes)) throw new Error('--indexes is all or pipeline');
const tableIndexes = values.indexes === 'pipeline' ? ['gsi1'] : undefined;
const mode = values.mode as 'both' | 'burst' | 'steady';
if (!['both', 'burst', 'steady'].includes(mode)) throw new Error('--mode is both, burst or steady');
const warmupEvents = Number(values.warmup);
const burstEvents = Number(values.events);
const steadyEvents = Number(values['steady-events']);
const concurrency = Number(values.concurrency);
const rate = Number(values.rate);
const queueConcurrency = values['queue-concurrency'] === undefined ? undefined : Number(values['queue-concurrency']);
/** The batches at once the sender's poller runs with: the option's, or its deployed mapping's start. */
const senderConcurrency = queueConcurrency ?? queueStartConcurrency(consumers.find((c) => c.name === 'webhook-sender') as QueueConsumerDef);

const stack = await startLocalStack({
  port: 0,
  dynamoPort: 0,
  sqsPort: 0,
  handleSignals: true,
  queueConcurrency,
  ...(tableIndexes ? { tableIndexes } : {}),
  env: { WEBHOOK_ALLOW_LOOPBACK: '1', POWERTOOLS_LOG_LEVEL: 'ERROR' },
});

/** Calls on the wire by `X-Amz-Target` (e.g. `DynamoDB_20120810.PutItem`, `AmazonSQS.ReceiveMessage`). */
const calls = new Map<string, number>();
const dynamoPort = String(stack.settings.dynamoPort);
const sqsPort = String(stack.settings.sqsPort);
subscribe('http.client.request.start', (message) => {
  const request = (message as { request: ClientRequest }).request;
  const target = request.getHeader('x-amz-target');
  const port = String((request as unknown as { port?: number }).port ?? request.getHeader('host')?.toString().split(':')[1] ?? '');
  const service = port === dynamoPort ? 'dynamodb' : port === sqsPort ? 'sqs' : null;
  if (!service) return;
  const name = typeof target === 'string' ? target : `${service}.${request.method}`;
  calls.set(name, (calls.get(name) ?? 0) + 1);
});
const snapshot = () => new Map(calls);
function callsSince(before: Map<string, number>) {
  const delta: Record<string, number> = {};
  for (const [name, n] of calls) if (n - (before.get(name) ?? 0) > 0) delta[name] = n - (before.get(name) ?? 0);
  const dynamodb = Object.entries(delta)
    .filter(([n]) => n.startsWith('DynamoDB_'))
    .reduce((s, [, n]) => s + n, 0);
  const sqs = Object.entries(delta)
    .filter(([n]) => n.startsWith('AmazonSQS.') || n.startsWith('sqs.'))
    .reduce((s, [, n]) => s + n, 0);
  return { delta, dynamodb, sqs };
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

try {
  // Loaded after the stack has set this process's environment.
  const { createRootMerchant } = await import('../../shared/people/merchants.service.ts');
  const { createDestination } = await import('../../shared/webhooks/webhooks.service.ts');
  const { getMerchant } = await import('../../shared/people/merchants.repository.ts');
  const { listDeliveries } = await import('../../shared/webhooks/webhooks.repository.ts');
  const { emitEvent } = await import('../../shared/platform/events/outbox.ts');
  const { samplePayload } = await import('../../shared/platform/events/catalog.ts');

  const arrivals = new Map<string, number>();
  let expected = 0;
  let done: () => void = () => {};
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const { transactionId } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (!arrivals.has(transactionId)) arrivals.set(transactionId, at);
      res.writeHead(204).end();
      if (arrivals.size === expected) done();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;

  const root = await createRootMerchant({ name: 'Bench', ownerEmail: `bench-${Date.now()}@example.com`, ownerPassword: 'benchmark password', mode: 'test' });
  const merchant = (await getMerchant(root.merchantId))!;
  const destination = await createDestination(merchant, { url: `http://127.0.0.1:${port}/hooks`, eventTypes: ['payment.completed'] });

  /** The benchmark's own reads of the delivery records (`deliveriesFinished`), left out of the pipeline's calls. */
  let ownQueries = 0;
  /** Waits until every delivery record of the run is finished (the sender's last write comes after the POST). */
  async function deliveriesFinished(count: number): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      let finished = 0;
      let cursor: string | undefined;
      do {
        ownQueries++;
        const page = await listDeliveries(destination.id, 500, cursor);
        finished += page.items.filter((d) => d.status !== 'sending').length;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      if (finished >= count || Date.now() > deadline) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  let delivered = 0; // deliveries finished before the current run
  async function run(name: string, total: number, writeRate: number) {
    arrivals.clear();
    expected = total;
    const allArrived = new Promise<void>((resolve) => {
      done = resolve;
    });
    const before = snapshot();
    const cpuBefore = process.cpuUsage();
    const javaBefore = processCpuMs(stack.dynamoPid);
    const written = new Map<string, number>();
    let next = 0;
    const start = performance.now();
    const writer = async () => {
      while (next < total) {
        const i = next++;
        if (writeRate > 0) {
          const due = start + (i * 1000) / writeRate;
          if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
        }
        const transactionId = `${name}-${i}`;
        const occurredAt = new Date().toISOString();
        written.set(transactionId, performance.now());
        await emitEvent('payment.completed', merchant, { ...samplePayload('payment.completed', merchant.id, occurredAt), transactionId } as never, occurredAt);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, writer));
    const writesDone = performance.now();
    const deliveredWhileWriting = arrivals.size;
    const timeout = setTimeout(() => done(), 300_000);
    await allArrived;
    clearTimeout(timeout);
    const last = Math.max(...arrivals.values());
    const cpu = process.cpuUsage(cpuBefore);
    const javaAfter = processCpuMs(stack.dynamoPid);
    const countedCalls = callsSince(before); // SQS as of the last arrival: its idle polls go on after it
    const queriesBefore = ownQueries;
    await deliveriesFinished(delivered + total);
    // DynamoDB until the sender's last outcome is written (it comes after the POSTs), less the benchmark's own
    // outbox writes and its reads of the delivery records.
    const finalCalls = callsSince(before);
    const ownReads = ownQueries - queriesBefore;
    delivered += total;
    const dynamodbCalls = finalCalls.dynamodb - total - ownReads;
    const latencies = [...written].flatMap(([id, t]) => (arrivals.has(id) ? [arrivals.get(id)! - t] : [])).sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;
    return {
      run: name,
      events: total,
      delivered: arrivals.size,
      writeRate: writeRate > 0 ? writeRate : 'burst',
      eventsPerSecond: round(arrivals.size / ((last - start) / 1000)),
      // Where the time went: the writers' share of it (all events written), and the pipeline's pace after it, when it
      // no longer shares the machine with them.
      writesMs: Math.round(writesDone - start),
      deliveredWhileWriting,
      afterWritesEventsPerSecond: last > writesDone ? round((arrivals.size - deliveredWhileWriting) / ((last - writesDone) / 1000)) : null,
      latencyMs: { p50: Math.round(pct(50)), p95: Math.round(pct(95)), p99: Math.round(pct(99)), max: Math.round(latencies.at(-1)!) },
      cpuMsPerEvent: {
        node: round((cpu.user + cpu.system) / 1000 / arrivals.size, 2),
        dynamodbLocal: javaBefore !== null && javaAfter !== null ? round((javaAfter - javaBefore) / arrivals.size, 2) : null,
      },
      // CPU time over the run's wall time (first write to last arrival): how many cores each kept busy.
      coresBusy: {
        node: round((cpu.user + cpu.system) / 1000 / (last - start), 2),
        dynamodbLocal: javaBefore !== null && javaAfter !== null ? round((javaAfter - javaBefore) / (last - start), 2) : null,
      },
      dynamodbCallsPerEvent: round(dynamodbCalls / arrivals.size, 2),
      sqsCallsPerEvent: round(countedCalls.sqs / arrivals.size, 2),
      calls: {
        ...countedCalls.delta,
        ...Object.fromEntries(Object.entries(finalCalls.delta).filter(([name]) => name.startsWith('DynamoDB_'))),
        'DynamoDB_20120810.PutItem': (finalCalls.delta['DynamoDB_20120810.PutItem'] ?? 0) - total,
        'DynamoDB_20120810.Query': (finalCalls.delta['DynamoDB_20120810.Query'] ?? 0) - ownReads,
      },
    };
  }

  // Warm-up (not reported): the JVM's JIT, the handlers' first loads and the receiver's connections.
  if (warmupEvents > 0) await run('warmup', warmupEvents, 0);
  const results = [];
  if (mode !== 'steady') results.push(await run('burst', burstEvents, 0));
  if (mode !== 'burst') results.push(await run('steady', steadyEvents, rate));
  receiver.close();

  for (const r of results) console.log(JSON.stringify(r, null, 2));
  const burst = results.find((r) => r.run === 'burst');
  const steady = results.find((r) => r.run === 'steady');
  const cpu = burst ?? steady!;
  console.log(
    JSON.stringify({
      burstEventsPerSecond: burst?.eventsPerSecond ?? null,
      steadyP50Ms: steady?.latencyMs.p50 ?? null,
      steadyP95Ms: steady?.latencyMs.p95 ?? null,
      steadyP99Ms: steady?.latencyMs.p99 ?? null,
      steadyRate: steady ? rate : null,
      dynamodbCallsPerEvent: Math.max(...results.map((r) => r.dynamodbCallsPerEvent)),
      sqsCallsPerEvent: Math.max(...results.map((r) => r.sqsCallsPerEvent)),
      nodeCpuMsPerEvent: cpu.cpuMsPerEvent.node,
      dynamodbLocalCpuMsPerEvent: cpu.cpuMsPerEvent.dynamodbLocal,
      queueConcurrency: senderConcurrency,
      burstWritesMs: burst?.writesMs ?? null,
      burstAfterWritesEventsPerSecond: burst?.afterWritesEventsPerSecond ?? null,
      burstDynamodbLocalCoresBusy: burst?.coresBusy.dynamodbLocal ?? null,
      indexes: values.indexes,
    }),
  );
} finally {
  await stack.stop();
}
