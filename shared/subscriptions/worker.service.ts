/**
 * The renewal worker's step (the queue consumer behind the sweep, ./sweep.service.ts): every action due for a queued
 * subscription, on its organization's clock. A duplicate message finds nothing due; nothing due puts the
 * subscription back on the due index where it belongs (ending the sweep's lease).
 */
import { getMerchant } from '../people/merchants.service.ts';
import { runDue } from './renewals.service.ts';
import * as repo from './subscriptions.repository.ts';
import { config } from '../platform/config.ts';
import { sendMail } from '../platform/mail/mailer.ts';

/**
 * The worker's step for one queued subscription (`{subscriptionId, organizationId}`): every action due for it on its
 * organization's clock. The subscription and the clock are one read, the organization another, at once.
 */
export async function renewQueued(body: string): Promise<void> {
  const { subscriptionId, organizationId } = JSON.parse(body) as { subscriptionId: string; organizationId: string };
  const [found, organization] = await Promise.all([
    config.stage === 'sandbox'
      ? repo.getWithClockOffset(organizationId, subscriptionId)
      : repo.getSubscription(organizationId, subscriptionId).then((s) => (s ? { subscription: s, offsetMs: 0 } : null)),
    getMerchant(organizationId),
  ]);
  if (!found || !organization) return;
  await runDue(organization, found.subscription, new Date(Date.now() + found.offsetMs).toISOString(), found.offsetMs, { mail: sendMail });
}
