import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { updateCustomer } from '../../shared/services/customers.ts';

export const handler = route(paymentRoutes.updateCustomer, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updateCustomer(organization, params.customerId!, body)),
}));
