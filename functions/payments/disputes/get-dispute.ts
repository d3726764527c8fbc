import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../../shared/payments/routes.ts';
import { getDispute } from '../../../shared/payments/disputes.service.ts';

export const handler = route(paymentRoutes.getDispute, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getDispute(organization.id, params.disputeId)),
}));
