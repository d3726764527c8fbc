import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as paymentRoutes from '../../../shared/customers/routes.ts';
import { updatePaymentInstrument } from '../../../shared/customers/payment-instruments.service.ts';

export const handler = route(paymentRoutes.updatePaymentInstrument, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updatePaymentInstrument(organization.id, params.paymentInstrumentId!, body)),
}));
