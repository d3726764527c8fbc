import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../shared/customers/routes.ts';
import { updateCustomer } from '../../shared/customers/customers.service.ts';

export const handler = route(customerRoutes.updateCustomer, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updateCustomer(organization, params.customerId, body)),
}));
