import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';
import { attachPaymentInstrument } from '../../../shared/customers/payment-instruments.service.ts';

export const handler = route(customerRoutes.attachPaymentInstrument, async ({ organization, params, body }) => ({
  status: 201,
  body: objectReply(await attachPaymentInstrument(organization.id, params.customerId, body.token)),
}));
