import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { availablePaymentMethods } from '../../shared/services/payment-methods.ts';

export const handler = route(paymentRoutes.getPaymentMethods, ({ organization }) => ({
  status: 200,
  body: availablePaymentMethods(organization.id),
}));
