import * as dashboardRoutes from '../../shared/routes/dashboard.ts';
import { route } from '../../shared/http/auth-session.ts';
import { listDeliveries } from '../../shared/services/webhooks.ts';

export const handler = route(dashboardRoutes.listWebhookDeliveries, async ({ merchant, params, query }) => ({
  status: 200,
  body: await listDeliveries(merchant, params.id!, query),
}));
