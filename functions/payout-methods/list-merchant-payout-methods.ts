import { route } from '../../shared/http/auth-api-key.ts';
import * as merchantRoutes from '../../shared/routes/merchant.ts';
import { listMerchantPayoutMethods } from '../../shared/services/payout-methods.ts';

export const handler = route(merchantRoutes.listMerchantPayoutMethods, async ({ merchant }) => ({
  status: 200,
  body: await listMerchantPayoutMethods(merchant),
}));
