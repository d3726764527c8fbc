import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { createCancellation } from '../../shared/subscriptions/cancellations.service.ts';

export const handler = route(subscriptionRoutes.createSubscriptionCancellation, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createCancellation(organization, body)),
}));
