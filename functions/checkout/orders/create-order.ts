import { route } from '../../../shared/access/auth-api-key.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';
import { createOrder } from '../../../shared/checkout/orders.service.ts';

export const handler = route(checkoutRoutes.createOrder, async ({ merchant, body, idempotencyKey }) => {
  const { order, replayed } = await createOrder(merchant, body, idempotencyKey);
  return { status: 201, body: order, ...(replayed ? { headers: { 'idempotent-replayed': 'true' } } : {}) };
});
