import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { createPause } from '../../shared/subscriptions/pauses.service.ts';

export const handler = route(subscriptionRoutes.createSubscriptionPause, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createPause(organization, body)),
}));
