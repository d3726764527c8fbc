import { route } from '../../../shared/access/auth-api-key.ts';
import * as moneyRoutes from '../../../shared/money/routes.ts';
import { advanceWithdrawal } from '../../../shared/money/payouts.service.ts';

export const handler = route(moneyRoutes.advancePayout, async ({ merchant, params, body }) => ({
  status: 200,
  body: await advanceWithdrawal(params.withdrawalId, body.to, merchant.id),
}));
