import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as moneyRoutes from '../../../shared/money/routes.ts';
import { removePayoutMethod } from '../../../shared/money/payout-methods.service.ts';

export const handler = route(moneyRoutes.deletePayoutMethod, async ({ organization, params }) => {
  await removePayoutMethod(organization, params.payoutMethodId);
  return { status: 204 };
});
