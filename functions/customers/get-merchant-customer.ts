import { route } from '../../shared/access/auth-api-key.ts';
import * as merchantRoutes from '../../shared/routes/merchant.ts';
import { getMerchantCustomer } from '../../shared/customers/customers.service.ts';

export const handler = route(merchantRoutes.getMerchantCustomer, async ({ merchant, params }) => ({
  status: 200,
  body: await getMerchantCustomer(merchant, params.id!),
}));
