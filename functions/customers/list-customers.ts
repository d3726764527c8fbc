import { listReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../shared/customers/routes.ts';
import { listCustomers } from '../../shared/customers/customers.service.ts';

export const handler = route(customerRoutes.listCustomers, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listCustomers(organization, query), query),
}));
