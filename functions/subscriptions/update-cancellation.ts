import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { updateCancellation } from '../../shared/subscriptions/cancellations.service.ts';

export const handler = route(subscriptionRoutes.updateSubscriptionCancellation, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updateCancellation(organization, params.subscriptionCancellationId, body)),
}));
