import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../../shared/webhooks/routes.ts';
import { deleteDestination } from '../../../shared/webhooks/org-webhooks.service.ts';

export const handler = route(paymentRoutes.deleteOrganizationWebhookDestination, async ({ principal, params }) => ({
  status: 200,
  body: objectReply(await deleteDestination(principal.accountId, params.webhookDestinationId!)),
}));
