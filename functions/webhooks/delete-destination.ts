import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { deleteDestination } from '../../shared/webhooks/webhooks.service.ts';

export const handler = route(webhookRoutes.deleteWebhookDestination, async ({ merchant, params }) => {
  await deleteDestination(merchant, params.id);
  return { status: 204 };
});
