import { listReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { listTransactions } from '../../shared/services/transactions.ts';

export const handler = route(paymentRoutes.listTransactions, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listTransactions(organization.id, query), query),
}));
