import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { listDestinationsPage } from '../../shared/webhooks/webhooks.service.ts';

export const handler = route(webhookRoutes.listWebhookDestinations, async ({ merchant, query }) => ({
  status: 200,
  body: await listDestinationsPage(merchant, query),
}));
