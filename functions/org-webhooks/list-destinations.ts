import { listReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { listDestinations } from '../../shared/services/org-webhooks.ts';

export const handler = route(paymentRoutes.listOrganizationWebhookDestinations, async ({ principal, query }) => ({
  status: 200,
  body: listReply(await listDestinations(principal.accountId, query), query),
}));
