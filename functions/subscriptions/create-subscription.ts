import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { createSubscriptionOnce } from '../../shared/subscriptions/create-once.service.ts';

export const handler = route(subscriptionRoutes.createSubscription, async ({ organization, body, idempotencyKey }) => {
  const { subscription, replayed } = await createSubscriptionOnce(organization, body, idempotencyKey);
  return { status: 201, body: objectReply(subscription), ...(replayed ? { headers: { 'idempotent-replayed': 'true' } } : {}) };
});
