/**
 * The records the subscriptions' request examples (the `subscriptions` list of `shared/routes/docs/index.ts`) name, made through the
 * organization API on the base fixture's organization. Their dates are clock times, so the organization's sandbox
 * test clock is first set to EXAMPLE_CLOCK: the examples' `endAt` and `to` lie after it, whatever the real date.
 */
import { getTestClock, saveTestClock } from '../../../../shared/subscriptions/test-clock.repository.ts';
import { orgCall, orgPath, orgPlan } from '../../../support/fixtures.ts';
import type { BaseFixture, FixtureIds } from './fixture.ts';
import { customerWithCard } from './merchant.fixture.ts';

/** The organization's clock time when the examples run (the test clock's now, moving on from there). */
export const EXAMPLE_CLOCK = '2027-01-04T09:00:00.000Z';

/**
 * Sets the organization's test clock to `at`: written directly, since the clock's route only moves it forward and
 * `at` may lie behind real time (the examples' dates are fixed).
 */
async function setClock(organizationId: string, at: string) {
  const clock = await getTestClock(organizationId);
  const saved = await saveTestClock({ organizationId, offsetMs: Date.parse(at) - Date.now(), advancingTo: null, leaseUntil: null, version: clock.version + 1 });
  if (!saved) throw new Error('subscriptions fixture: the test clock changed while it was being set');
}

export async function subscriptionsFixture(base: BaseFixture): Promise<FixtureIds> {
  const org = { organizationId: base.merchantId, fullKey: base.orgApiKey };
  const O = orgPath(base.merchantId);
  const post = async (what: string, path: string, body: unknown, status = 201) => {
    const res = await orgCall('POST', `${O}${path}`, { fullKey: org.fullKey, body });
    if (res.status !== status) throw new Error(`subscriptions fixture: ${what} answered ${res.status} ${res.text}`);
    return res.json.data as Record<string, any> & { id: string };
  };

  await setClock(base.merchantId, EXAMPLE_CLOCK);
  // Two monthly plans of one product (10 and 25 USD): the subscriptions' and the items update's.
  const plan = await orgPlan(org, { name: 'Team monthly', pricing: { price: 10, formula: 'fixed-fee' } }, { productType: 'recurring' });
  const upgrade = await orgPlan(
    org,
    { name: 'Business monthly', pricing: { price: 25, formula: 'fixed-fee' }, recurringInterval: { unit: 'month', length: 1 } },
    { productId: plan.productId },
  );
  const { customerId, paymentInstrumentId } = await customerWithCard(base, { firstName: 'Katherine', lastName: 'Johnson' });
  const subscribe = () => post('subscription', '/subscriptions', { customerId, paymentInstrumentId, items: [{ plan: plan.id, quantity: 1 }] });
  const [main, toCancel, toPause, toReactivate, cancelled, paused, pausedToResume, revoked] = await Promise.all(Array.from({ length: 8 }, subscribe));

  const [cancellation, pause, pauseToDelete] = await Promise.all([
    post('draft cancellation', '/subscription-cancellations', { subscriptionId: cancelled!.id, status: 'draft', reason: 'too-expensive' }),
    post('pause', '/subscription-pauses', { subscriptionId: paused!.id, pausedBy: 'customer' }),
    post('pause', '/subscription-pauses', { subscriptionId: pausedToResume!.id, pausedBy: 'merchant' }),
    // Ended at once: the reactivation example brings it back.
    post('cancellation now', '/subscription-cancellations', { subscriptionId: toReactivate!.id, churnTimePolicy: 'now', reason: 'did-not-use' }),
    // A cancellation at the next renewal, revoked by a reactivation (nothing charged).
    post('cancellation', '/subscription-cancellations', { subscriptionId: revoked!.id, reason: 'other' }),
  ]);
  const reactivation = await post('reactivation', '/subscription-reactivations', { subscriptionId: revoked!.id, description: 'Changed their mind' });

  return {
    subscriptionPlanId: plan.id,
    subscriptionUpgradePlanId: upgrade.id,
    subscriberCustomerId: customerId,
    subscriberPaymentInstrumentId: paymentInstrumentId,
    subscriptionId: main!.id,
    subscriptionIdToCancel: toCancel!.id,
    subscriptionIdToPause: toPause!.id,
    subscriptionIdToReactivate: toReactivate!.id,
    subscriptionCancellationId: cancellation!.id,
    subscriptionPauseId: pause!.id,
    subscriptionPauseIdToDelete: pauseToDelete!.id,
    subscriptionReactivationId: reactivation.id,
  };
}
