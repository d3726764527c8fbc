import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';
import { availablePaymentMethods } from '../../../shared/customers/payment-methods.service.ts';

export const handler = route(customerRoutes.getPaymentMethods, ({ organization }) => ({
  status: 200,
  body: availablePaymentMethods(organization.id),
}));
