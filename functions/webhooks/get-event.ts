import { route } from '../../shared/access/auth-api-key.ts';
import * as webhookRoutes from '../../shared/webhooks/routes.ts';
import { getMerchantEvent } from '../../shared/webhooks/events.service.ts';

export const handler = route(webhookRoutes.getMerchantEvent, async ({ merchant, principal, params }) => ({
  status: 200,
  body: await getMerchantEvent(merchant, principal.merchantId, params.eventId),
}));
