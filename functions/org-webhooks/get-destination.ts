import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { getDestination } from '../../shared/services/org-webhooks.ts';

export const handler = route(paymentRoutes.getOrganizationWebhookDestination, async ({ principal, params }) => ({
  status: 200,
  body: objectReply(await getDestination(principal.accountId, params.webhookDestinationId!)),
}));
