/**
 * Soak of the subscription engine under concurrency: the race model of `npm test`
 * (test/subscriptions/subscription-races.ts) run for a given time on its own local stack, `--lanes` runs at a time (each run its
 * own organization), and its figures printed as one JSON line: interleavings and operations run, answers by kind,
 * charges and refunds made, and the violations found — unexplained charges, refunds without their cancellation,
 * cancellations without their refund, processor/ledger mismatches, 5xx answers, answers their operation may not give,
 * stuck clocks, steps left pending (each 0 when the engine holds) — with the first few described.
 *
 * Run: `npm run soak:subscriptions [-- --minutes 10 --lanes 4 --seed 42]`. `--break` takes the version condition of
 * the subscription's writes away (as the test that shows the checks can fail does): the figures then show what it
 * lets through. Exits 0 whatever it finds (the JSON says); a thrown error exits non-zero.
 */
import { parseArgs } from 'node:util';
import { startLocalStack } from '../../infra/local/stack.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    lanes: { type: 'string', default: '4' },
    seed: { type: 'string' },
    break: { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const lanes = Number(values.lanes);
if (!(minutes > 0) || !Number.isInteger(lanes) || lanes <= 0) throw new Error('--minutes must be positive and --lanes a positive whole number');
const seed = values.seed ? Number(values.seed) : Date.now() % 2 ** 31;

const stack = await startLocalStack({ port: 0, dynamoPort: 0, sqsPort: 0, handleSignals: true, env: { POWERTOOLS_LOG_LEVEL: 'ERROR' } });
try {
  // Loaded after the stack has set this process's environment.
  const fc = (await import('fast-check')).default;
  const { stepFaults } = await import('../../shared/subscriptions/subscriptions.repository.ts');
  const { fillPool } = await import('../subscriptions/subscription-model.ts');
  const { emptyFigures, raceRun, raceRunArbitrary, violationCount } = await import('../subscriptions/subscription-races.ts');
  stepFaults.withoutVersionCondition = values.break;
  const figures = emptyFigures();
  const started = Date.now();
  const deadline = started + minutes * 60_000;
  let runs = 0;
  let failedRuns = 0;
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      // Each run drawn from its own seed (the soak's, its lane and its number): any run can be drawn again.
      for (let n = 0; Date.now() < deadline; n++) {
        const [run] = fc.sample(raceRunArbitrary, { numRuns: 1, seed: seed + lane * 1_000_000 + n });
        await fillPool('month', 1);
        if (!(await raceRun(run!, figures))) failedRuns++;
        runs++;
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  const { violations, ...counts } = figures;
  console.log(
    JSON.stringify({
      benchmark: 'soak:subscriptions',
      seed,
      lanes,
      brokenVersionCondition: values.break,
      seconds: Math.round(seconds),
      runs,
      failedRuns,
      ...counts,
      firstViolations: violations.slice(0, 5),
      goal: 'unexplainedCharges, refundsWithoutCancellation, cancellationsWithoutRefund, processorLedgerMismatches, fiveHundreds, unexpectedAnswers, taxMismatches, strandedInvoices, owedMismatches, stuckClocks and pendingLeft all 0',
      met: violationCount(figures) === 0,
    }),
  );
} finally {
  await stack.stop();
}
