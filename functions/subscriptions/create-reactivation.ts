import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { createReactivation } from '../../shared/subscriptions/reactivations.service.ts';

export const handler = route(subscriptionRoutes.createSubscriptionReactivation, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createReactivation(organization, body)),
}));
