import { route } from '../../shared/access/auth-api-key.ts';
import * as customerRoutes from '../../shared/customers/routes.ts';
import { listMerchantCustomers } from '../../shared/customers/customers.service.ts';

export const handler = route(customerRoutes.listMerchantCustomers, async ({ merchant, query }) => ({
  status: 200,
  body: await listMerchantCustomers(merchant, query),
}));
