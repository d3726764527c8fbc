import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { pingDestination } from '../../shared/webhooks/webhooks.service.ts';

export const handler = route(webhookRoutes.testWebhookDestination, async ({ merchant, params }) => ({
  status: 200,
  body: await pingDestination(merchant, params.id),
}));
