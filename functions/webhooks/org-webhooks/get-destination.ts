import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as webhookRoutes from '../../../shared/webhooks/routes.ts';
import { getDestination } from '../../../shared/webhooks/org-webhooks.service.ts';

export const handler = route(webhookRoutes.getOrganizationWebhookDestination, async ({ principal, params }) => ({
  status: 200,
  body: objectReply(await getDestination(principal.accountId, params.webhookDestinationId)),
}));
