import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { idempotencyKeyHeader } from '../../shared/domain/idempotency.ts';
import { createRefund } from '../../shared/services/refunds.ts';

export const handler = route(paymentRoutes.createRefund, async ({ organization, params, body, event }) => {
  const { refund, replayed } = await createRefund(organization, params.transactionId!, body, 'api', idempotencyKeyHeader(event.headers['idempotency-key']));
  return { status: 201, body: objectReply(refund), ...(replayed ? { headers: { 'idempotent-replayed': 'true' } } : {}) };
});
