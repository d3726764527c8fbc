import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { attachPaymentInstrument } from '../../shared/services/payment-instruments.ts';

export const handler = route(paymentRoutes.attachPaymentInstrument, async ({ organization, params, body }) => ({
  status: 201,
  body: objectReply(await attachPaymentInstrument(organization.id, params.customerId!, body.token)),
}));
