/**
 * The subscription property of ./subscription-properties.test.ts (what it runs and checks is described there) on
 * weekly plans: more renewals per run, and dunning that outlasts a period. SUBSCRIPTION_PROPERTY_RUNS runs (64 in
 * `npm test`, the covering examples among them; 300 in `npm run test:deep`).
 */
import { beforeAll, describe, it } from 'vitest';
import { coveringExamples, expectEveryKindHappened, fillPool, subscriptionProperty } from '../subscription-model.ts';

const RUNS = Number(process.env.SUBSCRIPTION_PROPERTY_RUNS ?? 64);

describe('subscription properties (weekly plans)', () => {
  // One organization a run, the examples' among them (none left over: this file has no scenarios; shrinking a failure
  // makes more).
  beforeAll(() => fillPool('week', RUNS), 300_000);

  it(`hold over random sequences of advances, worker deliveries, items updates, pauses, cancellations, revokes, reactivations and declines (${RUNS} runs)`, async () => {
    await subscriptionProperty('week', RUNS, coveringExamples('week'));
    expectEveryKindHappened();
  }, 900_000);
});
