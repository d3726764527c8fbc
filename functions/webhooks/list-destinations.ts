import * as dashboardRoutes from '../../shared/webhooks/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { listDestinations } from '../../shared/webhooks/webhooks.service.ts';

export const handler = route(dashboardRoutes.listWebhookDestinations, async ({ merchant }) => ({ status: 200, body: await listDestinations(merchant) }));
