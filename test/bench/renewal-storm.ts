/**
 * The first of the month: `--count` (20,000) subscriptions of ONE merchant fall due at the same instant, and the
 * sweep and renewal workers of `npm start` renew them. Starts its own local stack, then:
 *
 * 1. Seeds one merchant with a daily plan and one subscriber through the services (a customer, a card, a
 *    subscription charged at its start), then clones that subscriber `--count` times with new ids (customer,
 *    instrument, the sandbox vault's card and subscription, each item made by its entity) in `BatchWriteItem`s, each
 *    subscription due now: the merchant's sandbox test clock is a day and a minute ahead of real time, and every
 *    subscription's place on the due index is now (real time), as the clock's advance leaves it.
 * 2. Runs the sweep (`sweepDue`, which queues on the stack's renewal queue) until nothing due is left, while the
 *    stack's queue poller runs the renewal worker (`functions/subscriptions/renew.ts`) and its stream consumers run
 *    as `npm start` runs them; waits until every subscription was renewed (one invoice each).
 * 3. Counts every DynamoDB write of those phases (a middleware on the shared document client: `PutItem`,
 *    `UpdateItem`, `DeleteItem`, `BatchWriteItem` and each write of a `TransactWriteItems`; condition checks apart),
 *    per item and per partition key, the partitions of the global secondary indexes included: after the run every
 *    written item is read back, and each of its writes is counted on each index partition the item is on (a write
 *    that moved an item between partitions counts on where it ended, and on the partition a `Put` named).
 * 4. Checks: every subscription renewed once (two completed charges: its start and the renewal), invoice numbers
 *    unique, the merchant's balance equal to its journals.
 * 5. Projects the time to renew 1,000,000 such subscriptions on AWS (docs/performance.md, "Renewal storm"):
 *    - partitions: a partition takes 1,000 write units a second; a write of an item of `s` KB costs ⌈s⌉ units, twice
 *      in a transaction (the base table; an index write costs ⌈s⌉, its projection is the whole item). The hottest
 *      partition's units per renewal × 1,000,000 / 1,000 is the time it needs, at the least.
 *    - workers: 1,000 concurrent renewals (SQS and Lambda concurrency); a renewal takes its DynamoDB calls × 10 ms
 *      plus the processor's answer (`--processor-ms`, 400 ms on live networks), so 1,000,000 of them need
 *      1,000,000 × that / 1,000.
 *    - the sweep: a run claims in rounds for 40 s (`SWEEP_BUDGET_MS`), its claims 50 at once (the SDK's sockets) at
 *      10 ms each: 200,000 a run, a run a minute.
 *    The projection is the largest of the three.
 *
 * Prints the figures and the goals and exits 0 whatever they say; the last line is one JSON line. Run:
 * `npm run bench:renewal-storm [-- --count 20000 --processor-ms 400]`.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startLocalStack } from '../../infra/local/stack.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '20000' },
    'processor-ms': { type: 'string', default: '400' },
    'timeout-minutes': { type: 'string', default: '60' },
  },
});
const count = Number(values.count);
const processorMs = Number(values['processor-ms']);
const timeoutMs = Number(values['timeout-minutes']) * 60_000;
if (!Number.isInteger(count) || count <= 0) throw new Error('--count must be a positive whole number');

const GOAL_WRITES_PER_ITEM_PER_1000 = 10;
const GOAL_MINUTES_FOR_1M = 15;
const PARTITION_WCU_PER_SECOND = 1_000;
const CONCURRENCY = 1_000;
const CALL_MS = 10;
/** Calls the sweep's client has in flight at once (the SDK's default sockets). */
const SWEEP_SOCKETS = 50;
const MILLION = 1_000_000;
const round2 = (n: number) => Math.round(n * 100) / 100;
const loadAtStart = loadavg()[0]!;

const stack = await startLocalStack({ port: 0, dynamoPort: 0, sqsPort: 0, handleSignals: true, env: { POWERTOOLS_LOG_LEVEL: 'ERROR' } });
try {
  const { stormSeed, stormCount } = await import('../support/renewal-storm.ts');
  const { SWEEP_BUDGET_MS } = await import('../../shared/subscriptions/sweep.service.ts');
  const seed = await stormSeed(count);
  console.log(`seeded ${count} subscriptions of one merchant, all due now, in ${seed.seconds.toFixed(1)} s`);
  const result = await stormCount(seed, { timeoutMs });
  const { writes, renewals, seconds, checks } = result;

  // ---- Figures.
  const per1000 = (n: number) => round2((n / renewals) * 1000);
  const hottestItem = writes.items[0];
  const hottestPartition = writes.partitions[0];
  const partitionMinutes = hottestPartition ? (hottestPartition.unitsPerRenewal * MILLION) / PARTITION_WCU_PER_SECOND / 60 : 0;
  const renewalSeconds = (writes.callsPerRenewal * CALL_MS + processorMs) / 1000;
  const workerMinutes = (MILLION * renewalSeconds) / CONCURRENCY / 60;
  const sweepMinutes = MILLION / ((SWEEP_BUDGET_MS / 1000) * (SWEEP_SOCKETS / (CALL_MS / 1000)));
  const projectedMinutesFor1M = round2(Math.max(partitionMinutes, workerMinutes, sweepMinutes));
  const maxWritesPerItemPer1000Renewals = hottestItem ? per1000(hottestItem.writes) : 0;
  const goals = {
    everyOneRenewedOnce: checks.notRenewedOnce === 0,
    invoiceNumbersUnique: checks.duplicateInvoiceNumbers === 0,
    ledgerMatchesJournals: checks.ledgerMatches,
    maxWritesPerItemPer1000AtMost10: maxWritesPerItemPer1000Renewals <= GOAL_WRITES_PER_ITEM_PER_1000,
    projectedMinutesFor1MAtMost15: projectedMinutesFor1M <= GOAL_MINUTES_FOR_1M,
  };
  console.log(
    `\n${renewals} renewals of one merchant in ${seconds.toFixed(1)} s (${cpus().length} CPUs, 1-minute load ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} now)`,
  );
  console.log('  most written items (writes per 1,000 renewals):');
  for (const i of writes.items.slice(0, 8)) console.log(`    ${String(per1000(i.writes)).padStart(8)}  ${i.kind}`);
  console.log('  most written partitions (write units per renewal, index partitions marked):');
  for (const p of writes.partitions.slice(0, 10)) console.log(`    ${p.unitsPerRenewal.toFixed(2).padStart(8)}  ${p.kind}`);
  console.log(
    `  projection for 1,000,000: hottest partition ${partitionMinutes.toFixed(1)} min, workers ${workerMinutes.toFixed(1)} min (${writes.callsPerRenewal.toFixed(2)} calls × ${CALL_MS} ms + ${processorMs} ms, ${CONCURRENCY} at once), sweep ${sweepMinutes.toFixed(1)} min (${SWEEP_SOCKETS} claims at once for ${SWEEP_BUDGET_MS / 1000} s a run, a run a minute)`,
  );
  for (const [goal, met] of Object.entries(goals)) console.log(`  ${met ? 'met    ' : 'NOT MET'}  ${goal}`);
  console.log(
    JSON.stringify({
      benchmark: 'renewal-storm',
      renewals,
      maxWritesPerItemPer1000Renewals,
      hottestItem: hottestItem?.kind ?? null,
      hottestPartition: hottestPartition?.kind ?? null,
      hottestPartitionUnitsPerRenewal: hottestPartition ? round2(hottestPartition.unitsPerRenewal) : 0,
      projectedMinutesFor1M,
      projection: {
        partitionMinutes: round2(partitionMinutes),
        workerMinutes: round2(workerMinutes),
        sweepMinutes: round2(sweepMinutes),
        callsPerRenewal: round2(writes.callsPerRenewal),
        processorMs,
      },
      topItems: writes.items.slice(0, 5).map((i) => ({ kind: i.kind, per1000: per1000(i.writes) })),
      topPartitions: writes.partitions.slice(0, 5).map((p) => ({ kind: p.kind, unitsPerRenewal: round2(p.unitsPerRenewal) })),
      checks,
      goals,
      met: Object.values(goals).every(Boolean),
      seconds: { seed: round2(seed.seconds), storm: round2(seconds) },
      cpus: cpus().length,
      loadAverage1mAtStart: round2(loadAtStart),
      loadAverage1mAtEnd: round2(loadavg()[0]!),
    }),
  );
} finally {
  await stack.stop();
}
