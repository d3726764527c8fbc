import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { updateSubscriptionItems } from '../../shared/subscriptions/subscriptions.service.ts';

export const handler = route(subscriptionRoutes.updateSubscriptionItems, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updateSubscriptionItems(organization, params.subscriptionId, body)),
}));
