import * as dashboardRoutes from '../../shared/webhooks/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { pingDestination } from '../../shared/webhooks/webhooks.service.ts';

export const handler = route(dashboardRoutes.testWebhookDestination, async ({ merchant, params }) => ({
  status: 200,
  body: await pingDestination(merchant, params.id!),
}));
