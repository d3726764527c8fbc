import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import * as subscriptionRoutes from '../../shared/subscriptions/routes.ts';
import { getTestClockView } from '../../shared/subscriptions/test-clock.service.ts';

export const handler = route(subscriptionRoutes.getTestClock, async ({ organization }) => ({
  status: 200,
  body: objectReply(await getTestClockView(organization)),
}));
