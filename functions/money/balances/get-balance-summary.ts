import { route } from '../../../shared/access/auth-api-key.ts';
import * as merchantRoutes from '../../../shared/money/routes.ts';
import { balanceSummary } from '../../../shared/money/ledger.service.ts';

export const handler = route(merchantRoutes.getBalanceSummary, async ({ merchant }) => ({ status: 200, body: await balanceSummary(merchant) }));
