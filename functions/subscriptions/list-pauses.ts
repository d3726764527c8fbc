import { route } from '../../shared/access/auth-org-api-key.ts';
import { listReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { listPauses } from '../../shared/subscriptions/pauses.service.ts';

export const handler = route(subscriptionRoutes.listSubscriptionPauses, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listPauses(organization, query), query),
}));
