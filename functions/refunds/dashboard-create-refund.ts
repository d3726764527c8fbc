import { route } from '../../shared/http/auth-session.ts';
import { dashboardRoutes } from '../../shared/routes/dashboard.ts';
import { createRefund, refundIdempotencyKeyOf } from '../../shared/services/refunds.ts';

export const handler = route(dashboardRoutes.createDashboardRefund, async ({ merchant, params, body, event }) => {
  const { refund, replayed } = await createRefund(merchant, params.transactionId!, body, 'dashboard', refundIdempotencyKeyOf(event.headers['idempotency-key']));
  return { status: 201, body: refund, ...(replayed ? { headers: { 'idempotent-replayed': 'true' } } : {}) };
});
