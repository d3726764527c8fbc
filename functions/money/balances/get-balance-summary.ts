import { route } from '../../../shared/access/auth-api-key.ts';
import * as moneyRoutes from '../../../shared/money/routes.ts';
import { balanceSummary } from '../../../shared/money/ledger.service.ts';

export const handler = route(moneyRoutes.getBalanceSummary, async ({ merchant }) => ({ status: 200, body: await balanceSummary(merchant) }));
