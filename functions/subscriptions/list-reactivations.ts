import { route } from '../../shared/access/auth-org-api-key.ts';
import { listReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { listReactivations } from '../../shared/subscriptions/reactivations.service.ts';

export const handler = route(subscriptionRoutes.listSubscriptionReactivations, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listReactivations(organization, query), query),
}));
