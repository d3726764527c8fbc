import { route } from '../../../shared/access/auth-api-key.ts';
import * as moneyRoutes from '../../../shared/money/routes.ts';
import { listMerchantPayoutMethods } from '../../../shared/money/payout-methods.service.ts';

export const handler = route(moneyRoutes.listMerchantPayoutMethods, async ({ merchant }) => ({
  status: 200,
  body: await listMerchantPayoutMethods(merchant),
}));
