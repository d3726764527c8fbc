import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../../shared/payments/routes.ts';
import { createDispute } from '../../../shared/payments/disputes.service.ts';

export const handler = route(paymentRoutes.createDispute, async ({ organization, params, body }) => ({
  status: 201,
  body: objectReply(await createDispute(organization, params.disputeId, body)),
}));
