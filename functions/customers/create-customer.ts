import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/customers/routes.ts';
import { createCustomer } from '../../shared/customers/customers.service.ts';

export const handler = route(paymentRoutes.createCustomer, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createCustomer(organization, body)),
}));
