/**
 * Changes decided on a read that another change overtook, each interleaving made certain by running the other change
 * inside the read (the module wrapped below), not hoped for:
 *
 * - A request reads its organization's clock (ready); an advance then runs and renews the subscription at a later
 *   instant; only then does the request read the subscription, so its `now` lies before the period the subscription
 *   is in. Each change is answered 409 `subscription.conflict` (retry: read it again), with nothing written and nothing
 *   charged: never a 5xx, never a pause or a cancellation dated before what it was decided on. A ten-minute soak of the
 *   race model found the items change answering 500 here (a proration at an instant outside its period).
 * - A prorated cancellation reads the period's payment; another prorated cancellation of the same version then
 *   completes and refunds it. The first is 409 `subscription.conflict` (not 422 `refund.amount_exceeds_refundable`,
 *   an amount it never asked for), and the payment is refunded once.
 * - A prorated cancellation reads the period's payment; the merchant then refunds all of it. The cancellation is 409
 *   `subscription.conflict` (not 422 `refund.transaction_not_refundable`), and its retry cancels with no refund.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Merchant } from '../../../shared/domain/merchants.ts';
import { createCancellation } from '../../../shared/subscriptions/cancellations.service.ts';
import { createPause } from '../../../shared/subscriptions/pauses.service.ts';
import { getSubscriptionById } from '../../../shared/subscriptions/subscriptions.repository.ts';
import { createRefund, refundsOfTransaction } from '../../../shared/payments/index.ts';
import { createSubscription, updateSubscriptionItems } from '../../../shared/subscriptions/subscriptions.service.ts';
import { subscriptionCharges } from '../../../shared/subscriptions/summaries.service.ts';
import { advanceTestClock } from '../../../shared/subscriptions/test-clock.service.ts';
import { fillPool, takeOrganization } from '../subscription-model.ts';

/**
 * The other change of each case, run once by the read it must overtake: `between` after the next clock read of a
 * request (before the request reads its subscription), `afterRead` after the next read of a transaction of the organization.
 */
const { between, afterRead, thenOnce } = vi.hoisted(() => {
  type Slot = { next: null | (() => Promise<void>) };
  /** `read`, which then runs what `slot` holds (once) before its caller goes on. */
  const thenOnce =
    <A extends unknown[], R>(slot: Slot, read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const result = await read(...args);
      const run = slot.next;
      slot.next = null;
      if (run) await run();
      return result;
    };
  return { between: { next: null } as Slot, afterRead: { next: null } as Slot, thenOnce };
});
vi.mock('../../../shared/subscriptions/test-clock.service.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../shared/subscriptions/test-clock.service.ts')>();
  return { ...original, changeClockOf: thenOnce(between, original.changeClockOf) };
});
vi.mock('../../../shared/payments/index.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../shared/payments/index.ts')>();
  return { ...original, findTransaction: thenOnce(afterRead, original.findTransaction) };
});

const DAY_MS = 86_400_000;

const changes: Record<string, (organization: Merchant, subscriptionId: string, planIds: string[]) => Promise<unknown>> = {
  'an items change with proration': (organization, id, planIds) =>
    updateSubscriptionItems(organization, id, { items: [{ plan: planIds[1]!, quantity: 1 }], retainRenewalTime: 'retain', proRataCredit: true }),
  'a pause from now': (organization, subscriptionId) => createPause(organization, { subscriptionId }),
  'a prorated cancellation now': (organization, subscriptionId) => createCancellation(organization, { subscriptionId, prorated: true, churnTimePolicy: 'now' }),
};

beforeAll(() => fillPool('month', Object.keys(changes).length + 1), 120_000);

/** A new organization's monthly subscription, its first period paid now. */
async function subscribed() {
  const { organization, customerId, instrumentId, planIds: plans } = await takeOrganization('month');
  const planIds = plans.USD;
  const { id } = await createSubscription(organization, {
    customerId,
    paymentInstrumentId: instrumentId,
    items: [{ plan: planIds[0]!, quantity: 1 }],
    trial: { enabled: false },
    isTrialOnly: false,
  });
  return { organization, planIds, id };
}

describe('a change decided on a clock read before an advance renewed the subscription', () => {
  for (const [name, change] of Object.entries(changes)) {
    it(`${name}: 409 subscription.conflict, nothing written, nothing charged`, async () => {
      const { organization, planIds, id } = await subscribed();
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

describe('a prorated cancellation whose period payment another cancellation refunded after it read it', () => {
  it('is 409 subscription.conflict; the payment is refunded once, by the other', async () => {
    const { organization, id } = await subscribed();
    const paid = (await getSubscriptionById(id))!.periodTransactionId!;
    const cancelNow = () => createCancellation(organization, { subscriptionId: id, prorated: true, churnTimePolicy: 'now' });
    let other: Awaited<ReturnType<typeof cancelNow>> | undefined;
    afterRead.next = async () => {
      other = await cancelNow();
    };
    await expect(cancelNow()).rejects.toMatchObject({ status: 409, code: 'subscription.conflict' });
    expect(other).toMatchObject({ status: 'completed' });
    const refunds = await refundsOfTransaction(paid);
    // One refund, the other's: its unused time, in USD's minor units.
    expect(refunds.map((r) => r.amountMinor)).toEqual([Math.round(other!.lineItems[0]!.unitPriceAmount * 100)]);
    expect((await getSubscriptionById(id))!.status).toBe('canceled');
  });
});

describe('a prorated cancellation whose period payment the merchant refunded in full after it read it', () => {
  it('is 409 subscription.conflict; read again, it cancels with nothing left to refund', async () => {
    const { organization, id } = await subscribed();
    const paid = (await getSubscriptionById(id))!.periodTransactionId!;
    const cancelNow = () => createCancellation(organization, { subscriptionId: id, prorated: true, churnTimePolicy: 'now' });
    afterRead.next = async () => {
      await createRefund(organization, paid, { reason: 'Goodwill' }, 'api');
    };
    await expect(cancelNow()).rejects.toMatchObject({ status: 409, code: 'subscription.conflict' });
    expect(afterRead.next).toBeNull();
    expect((await getSubscriptionById(id))!.status).toBe('active');
    const retried = await cancelNow();
    expect(retried).toMatchObject({ status: 'completed', lineItems: [] });
    expect((await refundsOfTransaction(paid)).length).toBe(1);
    expect((await getSubscriptionById(id))!.status).toBe('canceled');
  });
});
