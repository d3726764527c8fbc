import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../../shared/payments/routes.ts';
import { listRefunds } from '../../../shared/payments/refunds.service.ts';

export const handler = route(paymentRoutes.listRefunds, async ({ organization, params, query }) => ({
  status: 200,
  body: listReply(await listRefunds(organization, params.transactionId, query), query),
}));
