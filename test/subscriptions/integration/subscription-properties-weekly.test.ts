/**
 * The subscription property of ./subscription-properties.test.ts (what it runs and checks is described there) on
 * weekly plans: more renewals per run, and dunning that outlasts a period. SUBSCRIPTION_PROPERTY_RUNS runs (150 in
 * `npm test`, 300 in `npm run test:deep`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Advance, Cancel, Decline, fillPool, happened, MODEL_CURRENCIES, Reactivate, subscriptionProperty } from '../subscription-model.ts';

const RUNS = Number(process.env.SUBSCRIPTION_PROPERTY_RUNS ?? 150);

describe('subscription properties (weekly plans)', () => {
  // One organization a run and the examples' (none left over: this file has no scenarios; shrinking a failure makes more).
  beforeAll(() => fillPool('week', RUNS + 2), 300_000);

  it(`hold over random sequences of advances, worker deliveries, items updates, pauses, cancellations, revokes, reactivations and declines (${RUNS} runs)`, async () => {
    // Beside the random runs, one that surely reactivates with a charge and one whose declined renewal a retry surely
    // pays (the random ones may count none).
    const start = { unit: 'week', currency: 'USD', plan: 0, trialDays: 0, startInHours: 0, declining: false } as const;
    await subscriptionProperty('week', RUNS, [
      [start, [new Cancel('now'), new Reactivate(0)]],
      [start, [new Decline(true), new Advance(7 * 24 + 12), new Decline(false, true), new Advance(24)]],
    ]);
    // The property must not hold only because nothing happened.
    for (const kind of ['renewal', 'retry', 'items', 'reactivation', 'declined']) expect(happened.charges[kind], kind).toBeGreaterThan(0);
    for (const step of ['start', 'trial-end', 'renew', 'retry', 'pause', 'resume', 'end', 'cancel-delinquent'])
      expect(happened.steps[step], step).toBeGreaterThan(0);
    expect(happened.refunds).toBeGreaterThan(0);
    for (const currency of MODEL_CURRENCIES) expect(happened.paidIn[currency], currency).toBeGreaterThan(0);
  }, 900_000);
});
