import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { updatePause } from '../../shared/subscriptions/pauses.service.ts';

export const handler = route(subscriptionRoutes.updateSubscriptionPause, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updatePause(organization, params.subscriptionPauseId, body)),
}));
