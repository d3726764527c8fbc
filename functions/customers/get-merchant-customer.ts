import { route } from '../../shared/access/auth-api-key.ts';
import * as customerRoutes from '../../shared/customers/routes.ts';
import { getMerchantCustomer } from '../../shared/customers/customers.service.ts';

export const handler = route(customerRoutes.getMerchantCustomer, async ({ merchant, params }) => ({
  status: 200,
  body: await getMerchantCustomer(merchant, params.id),
}));
