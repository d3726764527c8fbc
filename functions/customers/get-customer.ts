import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { getCustomer } from '../../shared/services/customers.ts';

export const handler = route(paymentRoutes.getCustomer, async ({ organization, params, query }) => ({
  status: 200,
  body: objectReply(await getCustomer(organization, params.customerId!, query.showTestData)),
}));
