import { route } from '../../shared/http/auth-api-key.ts';
import * as merchantRoutes from '../../shared/routes/merchant.ts';
import { getMerchantCustomer } from '../../shared/services/customers.ts';

export const handler = route(merchantRoutes.getMerchantCustomer, async ({ merchant, params }) => ({
  status: 200,
  body: await getMerchantCustomer(merchant, params.id!),
}));
