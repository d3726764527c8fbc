import { route } from '../../../shared/access/auth-session.ts';
import * as paymentRoutes from '../../../shared/payments/routes.ts';
import { createRefund } from '../../../shared/payments/refunds.service.ts';

export const handler = route(paymentRoutes.createDashboardRefund, async ({ merchant, params, body, idempotencyKey }) => {
  const { refund, replayed } = await createRefund(merchant, params.transactionId, body, 'dashboard', idempotencyKey);
  return { status: 201, body: refund, ...(replayed ? { headers: { 'idempotent-replayed': 'true' } } : {}) };
});
