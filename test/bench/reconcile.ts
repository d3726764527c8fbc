/**
 * Benchmark of the reconciler: one merchant's payments, then `--stranded` refunds (200 by default) each stopped right
 * after the processor refunded it (the test-only fault point), as a crash would leave them; then one reconciler run,
 * timed. Run: `npm run bench:reconcile [-- --stranded 200]`.
 *
 * Prints one JSON line: how many operations the run settled, its seconds and operations per second, the goal beside
 * it — a run clears a backlog of 1,000 stranded operations within its 300 s function timeout (≥ 1,000 / 300 ≈ 3.33 per second) —
 * and the machine's CPU count and load average, since the numbers depend on what else runs.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startLocalStack } from '../../infra/local/stack.ts';

const { values } = parseArgs({ options: { stranded: { type: 'string', default: '200' } } });
const stranded = Number(values.stranded);
const GOAL_PER_SECOND = 1_000 / 300;

const stack = await startLocalStack({ port: 0, dynamoPort: 0, sqsPort: 0, handleSignals: true, env: { POWERTOOLS_LOG_LEVEL: 'ERROR' } });
try {
  // Loaded after the stack has set this process's environment.
  const { createRootMerchant } = await import('../../shared/people/merchants.service.ts');
  const { getMerchant } = await import('../../shared/people/merchants.repository.ts');
  const { sandboxCardToken } = await import('../support/cards.ts');
  const { createTransaction } = await import('../../shared/payments/transactions.service.ts');
  const { createRefund } = await import('../../shared/payments/refunds.service.ts');
  const { faultPoints } = await import('../../shared/payments/fault-points.service.ts');
  const { RECONCILE_AFTER_SECONDS, reconcile } = await import('../../shared/reconciliation/reconcile.service.ts');

  const root = await createRootMerchant({ name: 'Bench', ownerEmail: `bench-${Date.now()}@example.com`, ownerPassword: 'benchmark password', mode: 'test' });
  const merchant = (await getMerchant(root.merchantId))!;
  // Ten refunds of 1.00 per payment of 10.00.
  const payments: string[] = [];
  for (let i = 0; i < Math.ceil(stranded / 10); i++) {
    const token = await sandboxCardToken(merchant.id);
    const paid = await createTransaction(merchant, {
      idempotencyKey: `bench-${i}`,
      amount: 10,
      currency: 'USD',
      token: token.id,
      billingAddress: { country: 'US', region: 'OR' },
    });
    payments.push((paid.body as { data: { id: string } }).data.id);
  }
  faultPoints.afterProcessor = () => {
    throw new Error('stopped after the processor answered');
  };
  for (let i = 0; i < stranded; i++) {
    await createRefund(merchant, payments[Math.floor(i / 10)]!, { amount: 1 }, 'api').catch(() => undefined);
  }
  delete faultPoints.afterProcessor;

  const started = performance.now();
  const result = await reconcile(new Date(Date.now() + (RECONCILE_AFTER_SECONDS + 1) * 1000), { organizationId: merchant.id });
  const seconds = (performance.now() - started) / 1000;
  const settled = result.refunds.settled + result.charges.settled;
  const perSecond = settled / seconds;
  console.log(
    JSON.stringify({
      benchmark: 'reconcile',
      stranded,
      settled,
      left: result.refunds.left + result.charges.left,
      seconds: Number(seconds.toFixed(2)),
      perSecond: Number(perSecond.toFixed(1)),
      goal: { perSecondAtLeast: Number(GOAL_PER_SECOND.toFixed(2)), why: '1,000 stranded operations within one 300 s run' },
      met: settled === stranded && perSecond >= GOAL_PER_SECOND,
      cpus: cpus().length,
      loadavg: loadavg().map((l) => Number(l.toFixed(2))),
    }),
  );
} finally {
  await stack.stop();
}
