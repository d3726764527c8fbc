/**
 * Benchmark of the local webhook pipeline: outbox write → DynamoDB stream poller → fan-out → SQS → sender →
 * signed POST to a receiver on loopback. Run: `npm run bench:webhooks [-- --events 1000]`.
 *
 * Prints events per second (events / time from the first outbox write to the last arrival) and the p50/p99
 * latency from each event's outbox write to its arrival at the receiver, as JSON.
 *
 * `--rate 0` (default) writes all events as fast as `--concurrency` writers can (a burst: latency then measures
 * how long the backlog takes to drain); `--rate N` writes N events per second (steady-state latency).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { startLocalStack } from '../../infra/local/stack.ts';

const { values } = parseArgs({
  options: { events: { type: 'string', default: '1000' }, concurrency: { type: 'string', default: '20' }, rate: { type: 'string', default: '0' } },
});
const total = Number(values.events);
const concurrency = Number(values.concurrency);
const rate = Number(values.rate);

const stack = await startLocalStack({
  port: 0, dynamoPort: 0, sqsPort: 0, handleSignals: true,
  env: { WEBHOOK_ALLOW_LOOPBACK: '1', POWERTOOLS_LOG_LEVEL: 'ERROR' },
});
try {
  // Loaded after the stack has set this process's environment.
  const { createRootMerchant } = await import('../../shared/services/merchants.ts');
  const { createDestination } = await import('../../shared/services/webhooks.ts');
  const { getMerchant } = await import('../../shared/db/merchants.ts');
  const { emitEvent } = await import('../../shared/events/outbox.ts');
  const { samplePayload } = await import('../../shared/events/catalog.ts');

  const arrivals = new Map<string, number>();
  let done: () => void = () => {};
  const allArrived = new Promise<void>((resolve) => { done = resolve; });
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const { transactionId } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (!arrivals.has(transactionId)) arrivals.set(transactionId, at);
      res.writeHead(204).end();
      if (arrivals.size === total) done();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;

  const root = await createRootMerchant({ name: 'Bench', ownerEmail: `bench-${Date.now()}@example.com`, ownerPassword: 'benchmark password', mode: 'test' });
  const merchant = (await getMerchant(root.merchantId))!;
  await createDestination(merchant, { url: `http://127.0.0.1:${port}/hooks`, eventTypes: ['payment.completed'] });

  const written = new Map<string, number>();
  let next = 0;
  const start = performance.now();
  const writer = async () => {
    while (next < total) {
      const i = next++;
      if (rate > 0) {
        const due = start + (i * 1000) / rate;
        if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
      }
      const transactionId = `bench-${i}`;
      const occurredAt = new Date().toISOString();
      written.set(transactionId, performance.now());
      await emitEvent('payment.completed', merchant, { ...samplePayload('payment.completed', merchant.id, occurredAt), transactionId } as never, occurredAt);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, writer));
  const timeout = setTimeout(() => done(), 300_000);
  await allArrived;
  clearTimeout(timeout);
  receiver.close();

  const latencies = [...written].flatMap(([id, t]) => (arrivals.has(id) ? [arrivals.get(id)! - t] : [])).sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)]!;
  const last = Math.max(...arrivals.values());
  console.log(JSON.stringify({
    events: total,
    delivered: arrivals.size,
    eventsPerSecond: Number((arrivals.size / ((last - start) / 1000)).toFixed(1)),
    latencyMs: { p50: Math.round(pct(50)), p99: Math.round(pct(99)), max: Math.round(latencies.at(-1)!) },
    writerConcurrency: concurrency,
    writeRate: rate > 0 ? rate : 'burst',
  }, null, 2));
} finally {
  await stack.stop();
}
