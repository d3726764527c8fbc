import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { getDestination } from '../../shared/webhooks/webhooks.service.ts';

export const handler = route(webhookRoutes.getWebhookDestination, async ({ merchant, params }) => ({
  status: 200,
  body: await getDestination(merchant, params.id),
}));
