import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';
import { getPaymentInstrument } from '../../../shared/customers/payment-instruments.service.ts';

export const handler = route(customerRoutes.getPaymentInstrument, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getPaymentInstrument(organization.id, params.paymentInstrumentId)),
}));
