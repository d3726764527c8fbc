import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { listDeliveries } from '../../shared/webhooks/webhooks.service.ts';

export const handler = route(webhookRoutes.listWebhookDeliveries, async ({ merchant, params, query }) => ({
  status: 200,
  body: await listDeliveries(merchant, params.id, query),
}));
