import { listReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { listCardTokens } from '../../shared/services/card-tokens.ts';

export const handler = route(paymentRoutes.listCardTokens, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listCardTokens(organization.id, query), query),
}));
