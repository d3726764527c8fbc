import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as webhookRoutes from '../../../shared/webhooks/routes.ts';
import { updateDestination } from '../../../shared/webhooks/org-webhooks.service.ts';

export const handler = route(webhookRoutes.updateOrganizationWebhookDestination, async ({ principal, params, body }) => ({
  status: 200,
  body: objectReply(await updateDestination(principal.accountId, params.webhookDestinationId, body)),
}));
