import { route } from '../../../shared/access/auth-api-key.ts';
import * as moneyRoutes from '../../../shared/money/routes.ts';
import { listMerchantPayouts } from '../../../shared/money/payouts.service.ts';

export const handler = route(moneyRoutes.listMerchantPayouts, async ({ merchant, query }) => ({
  status: 200,
  body: await listMerchantPayouts(merchant, query),
}));
