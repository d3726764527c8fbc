/**
 * The renewal worker's step (the queue consumer behind the sweep, ./sweep.service.ts): every action due for a queued
 * subscription, on its organization's clock. A duplicate message finds nothing due; nothing due puts the
 * subscription back on the due index where it belongs (ending the sweep's lease).
 */
import { merchantRead } from '../people/index.ts';
import { batchRead } from '../platform/db/batch-read.ts';
import { runDue } from './renewals.service.ts';
import { isAdvancing } from './test-clock.service.ts';
import * as repo from './subscriptions.repository.ts';
import { config } from '../platform/config.ts';

/**
 * The worker's step for one queued subscription (`{subscriptionId, organizationId}`): every action due for it on its
 * organization's clock. The subscription, the organization and (on sandbox) the clock are one `BatchGetItem`. While
 * an advance of the organization's test clock runs, it does nothing: the advance runs what is due by its target, each
 * step at the instant it fell due, and puts every subscription back on the due index for the clock it leaves.
 */
export async function renewQueued(body: string): Promise<void> {
  const { subscriptionId, organizationId } = JSON.parse(body) as { subscriptionId: string; organizationId: string };
  const [subscription, organization, clock] =
    config.stage === 'sandbox'
      ? await batchRead([repo.subscriptionRead(subscriptionId), merchantRead(organizationId), repo.clockRead(organizationId)])
      : [...(await batchRead([repo.subscriptionRead(subscriptionId), merchantRead(organizationId)])), null];
  if (!subscription || subscription.organizationId !== organizationId || !organization) return;
  if (clock && isAdvancing(clock, Date.now())) return;
  const offset = clock?.offsetMs ?? 0;
  await runDue(organization, subscription, new Date(Date.now() + offset).toISOString(), offset, { reindex: true });
}
