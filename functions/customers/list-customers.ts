import { listReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { listCustomers } from '../../shared/services/customers.ts';

export const handler = route(paymentRoutes.listCustomers, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listCustomers(organization, query), query),
}));
