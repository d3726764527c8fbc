import { listReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/customers/routes.ts';
import { listCustomers } from '../../shared/customers/customers.service.ts';

export const handler = route(paymentRoutes.listCustomers, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listCustomers(organization, query), query),
}));
