/**
 * The subscription property of ./subscription-properties.test.ts (what it runs and checks is described there) on
 * weekly plans: more renewals per run, and dunning that outlasts a period. SUBSCRIPTION_PROPERTY_RUNS runs (150 in
 * `npm test`, 300 in `npm run test:deep`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fillPool, happened, MODEL_CURRENCIES, subscriptionProperty } from '../subscription-model.ts';

const RUNS = Number(process.env.SUBSCRIPTION_PROPERTY_RUNS ?? 150);

describe('subscription properties (weekly plans)', () => {
  // One organization a run (none left over: this file has no scenarios; shrinking a failure makes more).
  beforeAll(() => fillPool('week', RUNS), 300_000);

  it(`hold over random sequences of advances, worker deliveries, items updates, pauses, cancellations, revokes, reactivations and declines (${RUNS} runs)`, async () => {
    await subscriptionProperty('week', RUNS);
    // The property must not hold only because nothing happened.
    for (const kind of ['renewal', 'retry', 'items', 'reactivation', 'declined']) expect(happened.charges[kind], kind).toBeGreaterThan(0);
    for (const step of ['start', 'trial-end', 'renew', 'retry', 'pause', 'resume', 'end', 'cancel-delinquent'])
      expect(happened.steps[step], step).toBeGreaterThan(0);
    expect(happened.refunds).toBeGreaterThan(0);
    for (const currency of MODEL_CURRENCIES) expect(happened.paidIn[currency], currency).toBeGreaterThan(0);
  }, 900_000);
});
