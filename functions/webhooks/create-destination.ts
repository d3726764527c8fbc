import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { createDestination } from '../../shared/webhooks/webhooks.service.ts';

export const handler = route(webhookRoutes.createWebhookDestination, async ({ merchant, body, principal }) => ({
  status: 201,
  body: await createDestination(merchant, body, principal),
}));
