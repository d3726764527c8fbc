/**
 * A change decided on a clock read before a test clock advance moved the subscription on. The request reads its
 * organization's clock (ready), an advance then runs and renews the subscription at a later instant, and only then
 * does the request read the subscription: its `now` lies before the period the subscription is in. Each change is
 * answered 409 `subscription.conflict` (retry: read it again), with nothing written and nothing charged — never a
 * 5xx, never a pause or a cancellation dated before what it was decided on. A long soak of the race model found the
 * items change answering 500 here (a proration at an instant outside its period).
 *
 * The advance runs between the two reads through the clock read itself (`changeClockOf`, wrapped below), so the
 * interleaving is certain rather than hoped for.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Merchant } from '../../../shared/domain/merchants.ts';
import { createCancellation } from '../../../shared/subscriptions/cancellations.service.ts';
import { createPause } from '../../../shared/subscriptions/pauses.service.ts';
import { getSubscriptionById } from '../../../shared/subscriptions/subscriptions.repository.ts';
import { createSubscription, subscriptionCharges, updateSubscriptionItems } from '../../../shared/subscriptions/subscriptions.service.ts';
import { advanceTestClock } from '../../../shared/subscriptions/test-clock.service.ts';
import { fillPool, takeOrganization } from '../subscription-model.ts';

/** What runs once between the next clock read and the rest of its request. */
const between = vi.hoisted(() => ({ next: null as null | (() => Promise<void>) }));
vi.mock('../../../shared/subscriptions/test-clock.service.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../shared/subscriptions/test-clock.service.ts')>();
  return {
    ...original,
    changeClockOf: async (organizationId: string) => {
      const clock = await original.changeClockOf(organizationId);
      const run = between.next;
      between.next = null;
      if (run) await run();
      return clock;
    },
  };
});

const DAY_MS = 86_400_000;

const changes: Record<string, (organization: Merchant, subscriptionId: string, planIds: string[]) => Promise<unknown>> = {
  'an items change with proration': (organization, id, planIds) =>
    updateSubscriptionItems(organization, id, { items: [{ plan: planIds[1]!, quantity: 1 }], retainRenewalTime: 'retain', proRataCredit: true }),
  'a pause from now': (organization, subscriptionId) => createPause(organization, { subscriptionId }),
  'a prorated cancellation now': (organization, subscriptionId) => createCancellation(organization, { subscriptionId, prorated: true, churnTimePolicy: 'now' }),
};

describe('a change decided on a clock read before an advance renewed the subscription', () => {
  beforeAll(() => fillPool('month', Object.keys(changes).length), 120_000);

  for (const [name, change] of Object.entries(changes)) {
    it(`${name}: 409 subscription.conflict, nothing written, nothing charged`, async () => {
      const { organization, customerId, instrumentId, planIds } = await takeOrganization('month');
      const { id } = await createSubscription(organization, {
        customerId,
        paymentInstrumentId: instrumentId,
        items: [{ plan: planIds[0]!, quantity: 1 }],
        trial: { enabled: false },
        isTrialOnly: false,
      });
      const first = (await getSubscriptionById(id))!;
      let renewed = first;
      between.next = async () => {
        await advanceTestClock(organization, new Date(Date.parse(first.periodEnd!) + DAY_MS).toISOString());
        renewed = (await getSubscriptionById(id))!;
      };
      await expect(change(organization, id, planIds)).rejects.toMatchObject({ status: 409, code: 'subscription.conflict' });
      // The advance did run in between: the subscription is in its second period, which began after the request's now.
      expect(renewed.periodNumber).toBe(first.periodNumber + 1);
      expect(await getSubscriptionById(id)).toEqual(renewed);
      const { charges } = await subscriptionCharges(organization, id, 10);
      expect(charges.map((c) => c.status)).toEqual(['completed', 'completed']);
    });
  }
});
