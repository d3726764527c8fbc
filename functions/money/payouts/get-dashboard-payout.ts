import { route } from '../../../shared/access/auth-session.ts';
import * as moneyRoutes from '../../../shared/money/routes.ts';
import { getMerchantPayout } from '../../../shared/money/payouts.service.ts';

export const handler = route(moneyRoutes.getDashboardPayout, async ({ merchant, params }) => ({
  status: 200,
  body: await getMerchantPayout(merchant, params.withdrawalId),
}));
