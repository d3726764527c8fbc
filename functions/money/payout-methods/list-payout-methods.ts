import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as moneyRoutes from '../../../shared/money/routes.ts';
import { listPayoutMethodsPage } from '../../../shared/money/payout-methods.service.ts';

export const handler = route(moneyRoutes.listPayoutMethods, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listPayoutMethodsPage(organization, query), query),
}));
