import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';
import { updatePaymentInstrument } from '../../../shared/customers/payment-instruments.service.ts';

export const handler = route(customerRoutes.updatePaymentInstrument, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updatePaymentInstrument(organization.id, params.paymentInstrumentId, body)),
}));
