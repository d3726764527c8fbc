import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { getCancellation } from '../../shared/subscriptions/cancellations.service.ts';

export const handler = route(subscriptionRoutes.getSubscriptionCancellation, async ({ organization, params, query }) => ({
  status: 200,
  body: objectReply(await getCancellation(organization, params.subscriptionCancellationId, query.showTestData)),
}));
