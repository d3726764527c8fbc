import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import { paymentRoutes } from '../../shared/routes/payments.ts';
import { createRefund, refundIdempotencyKeyOf } from '../../shared/services/refunds.ts';

export const handler = route(paymentRoutes.createRefund, async ({ organization, params, body, event }) => {
  const { refund, replayed } = await createRefund(organization, params.transactionId!, body, 'api', refundIdempotencyKeyOf(event.headers['idempotency-key']));
  return { status: 201, body: objectReply(refund), ...(replayed ? { headers: { 'idempotent-replayed': 'true' } } : {}) };
});
