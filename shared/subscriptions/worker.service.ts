/**
 * The renewal worker's step (the queue consumer behind the sweep, ./sweep.service.ts): every action due for a queued
 * subscription, on its organization's clock. A duplicate message finds nothing due; nothing due puts the
 * subscription back on the due index where it belongs (ending the sweep's lease).
 */
import { getMerchant } from '../people/merchants.service.ts';
import { runDue } from './renewals.service.ts';
import * as repo from './subscriptions.repository.ts';
import { clockOf } from './test-clock.service.ts';

/** The worker's step for one queued subscription: every action due for it on its organization's clock. */
export async function renewQueued(body: string): Promise<void> {
  const { subscriptionId } = JSON.parse(body) as { subscriptionId: string };
  const s = await repo.getSubscriptionById(subscriptionId);
  if (!s) return;
  const [organization, clock] = await Promise.all([getMerchant(s.organizationId), clockOf(s.organizationId)]);
  if (!organization) return;
  await runDue(organization, s, clock.now(), clock.offsetMs);
}
