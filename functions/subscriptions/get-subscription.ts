import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { getSubscription } from '../../shared/subscriptions/subscriptions.service.ts';

export const handler = route(subscriptionRoutes.getSubscription, async ({ organization, params, query }) => ({
  status: 200,
  body: objectReply(await getSubscription(organization, params.subscriptionId, query.showTestData)),
}));
