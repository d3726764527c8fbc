import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../../shared/payments/routes.ts';
import { listTransactions } from '../../../shared/payments/transactions.service.ts';

export const handler = route(paymentRoutes.listTransactions, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listTransactions(organization.id, query), query),
}));
