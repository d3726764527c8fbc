import { route } from '../../shared/access/auth-org-api-key.ts';
import { listReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { listSubscriptions } from '../../shared/subscriptions/subscriptions.service.ts';

export const handler = route(subscriptionRoutes.listSubscriptions, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listSubscriptions(organization, query), query),
}));
