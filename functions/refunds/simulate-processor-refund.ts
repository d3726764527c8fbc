import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { createRefund } from '../../shared/services/refunds.ts';

export const handler = route(paymentRoutes.simulateProcessorRefund, async ({ organization, params, body }) => {
  const { refund } = await createRefund(organization, params.transactionId!, body, 'processor');
  return { status: 201, body: objectReply(refund) };
});
