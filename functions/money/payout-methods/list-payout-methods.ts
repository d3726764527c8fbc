import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/routes/organization.ts';
import { listPayoutMethodsPage } from '../../../shared/money/payout-methods.service.ts';

export const handler = route(organizationRoutes.listPayoutMethods, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listPayoutMethodsPage(organization, query), query),
}));
