import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { addPayoutMethod } from '../../shared/services/payout-methods.ts';

export const handler = route(organizationRoutes.createPayoutMethod, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await addPayoutMethod(organization, body)),
}));
