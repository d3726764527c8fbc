import { route } from '../../shared/access/auth-api-key.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { listEvents } from '../../shared/webhooks/events.service.ts';

export const handler = route(webhookRoutes.listMerchantEvents, async ({ merchant, principal, query }) => ({
  status: 200,
  body: await listEvents(merchant, principal.merchantId, query),
}));
