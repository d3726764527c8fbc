import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { getReactivation } from '../../shared/subscriptions/reactivations.service.ts';

export const handler = route(subscriptionRoutes.getSubscriptionReactivation, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getReactivation(organization, params.subscriptionReactivationId)),
}));
