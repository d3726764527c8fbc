import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../../shared/payments/routes.ts';
import { createRefund } from '../../../shared/payments/refunds.service.ts';

export const handler = route(paymentRoutes.simulateProcessorRefund, async ({ organization, params, body }) => {
  const { refund } = await createRefund(organization, params.transactionId, body, 'processor');
  return { status: 201, body: objectReply(refund) };
});
