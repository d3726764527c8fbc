import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { route } from '../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../shared/customers/routes.ts';
import { createCustomer } from '../../shared/customers/customers.service.ts';

export const handler = route(customerRoutes.createCustomer, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createCustomer(organization, body)),
}));
