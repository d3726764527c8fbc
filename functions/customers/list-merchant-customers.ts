import { route } from '../../shared/http/auth-api-key.ts';
import * as merchantRoutes from '../../shared/routes/merchant.ts';
import { listMerchantCustomers } from '../../shared/services/customers.ts';

export const handler = route(merchantRoutes.listMerchantCustomers, async ({ merchant, query }) => ({
  status: 200,
  body: await listMerchantCustomers(merchant, query),
}));
