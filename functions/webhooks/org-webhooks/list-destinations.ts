import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as webhookRoutes from '../../../shared/webhooks/routes.ts';
import { listDestinations } from '../../../shared/webhooks/org-webhooks.service.ts';

export const handler = route(webhookRoutes.listOrganizationWebhookDestinations, async ({ principal, query }) => ({
  status: 200,
  body: listReply(await listDestinations(principal.accountId, query), query),
}));
