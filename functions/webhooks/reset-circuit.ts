import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { resetCircuit } from '../../shared/webhooks/webhooks.service.ts';

export const handler = route(webhookRoutes.resetWebhookCircuit, async ({ merchant, params }) => ({
  status: 200,
  body: await resetCircuit(merchant, params.id),
}));
