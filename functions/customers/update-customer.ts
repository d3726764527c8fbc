import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/customers/routes.ts';
import { updateCustomer } from '../../shared/customers/customers.service.ts';

export const handler = route(paymentRoutes.updateCustomer, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updateCustomer(organization, params.customerId!, body)),
}));
