import { route } from '../../shared/access/auth-org-api-key.ts';
import { listReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { listCancellations } from '../../shared/subscriptions/cancellations.service.ts';

export const handler = route(subscriptionRoutes.listSubscriptionCancellations, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listCancellations(organization, query), query),
}));
