import { organizationOfBody } from '../../../shared/access/middleware.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../../shared/payments/routes.ts';
import { createTransaction } from '../../../shared/payments/transactions.service.ts';

export const handler = route(paymentRoutes.createTransaction, async ({ principal, body }) => {
  const { organization } = await organizationOfBody(principal, body.organizationId);
  return createTransaction(organization, body);
});
