import { route } from '../../shared/access/auth-api-key.ts';
import * as merchantRoutes from '../../shared/webhooks/routes.ts';
import { listEvents } from '../../shared/webhooks/events.service.ts';

export const handler = route(merchantRoutes.listMerchantEvents, async ({ merchant, principal, query }) => ({
  status: 200,
  body: await listEvents(merchant, principal.merchantId, query),
}));
