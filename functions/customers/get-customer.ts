import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../shared/customers/routes.ts';
import { getCustomer } from '../../shared/customers/customers.service.ts';

export const handler = route(customerRoutes.getCustomer, async ({ organization, params, query }) => ({
  status: 200,
  body: objectReply(await getCustomer(organization, params.customerId, query.showTestData)),
}));
