import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { getPause } from '../../shared/subscriptions/pauses.service.ts';

export const handler = route(subscriptionRoutes.getSubscriptionPause, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getPause(organization, params.subscriptionPauseId)),
}));
