import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as moneyRoutes from '../../../shared/money/routes.ts';
import { addPayoutMethod } from '../../../shared/money/payout-methods.service.ts';

export const handler = route(moneyRoutes.createPayoutMethod, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await addPayoutMethod(organization, body)),
}));
