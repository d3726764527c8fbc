import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { createSubscription } from '../../shared/subscriptions/subscriptions.service.ts';

export const handler = route(subscriptionRoutes.createSubscription, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createSubscription(organization, body)),
}));
