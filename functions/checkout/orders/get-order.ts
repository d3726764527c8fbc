import { route } from '../../../shared/access/auth-api-key.ts';
import * as checkoutRoutes from '../../../shared/checkout/routes.ts';
import { getOrder } from '../../../shared/checkout/orders.service.ts';

export const handler = route(checkoutRoutes.getOrder, async ({ merchant, params }) => ({
  status: 200,
  body: await getOrder(merchant, params.orderId),
}));
