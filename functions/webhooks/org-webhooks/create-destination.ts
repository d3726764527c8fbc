import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as webhookRoutes from '../../../shared/webhooks/routes.ts';
import { createDestination } from '../../../shared/webhooks/org-webhooks.service.ts';

export const handler = route(webhookRoutes.createOrganizationWebhookDestination, async ({ principal, body }) => ({
  status: 201,
  body: objectReply(await createDestination(principal, body)),
}));
