import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as webhookRoutes from '../../../shared/webhooks/routes.ts';
import { deleteDestination } from '../../../shared/webhooks/org-webhooks.service.ts';

export const handler = route(webhookRoutes.deleteOrganizationWebhookDestination, async ({ principal, params }) => ({
  status: 200,
  body: objectReply(await deleteDestination(principal.accountId, params.webhookDestinationId)),
}));
