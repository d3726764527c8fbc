import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';
import { listPaymentInstruments } from '../../../shared/customers/payment-instruments.service.ts';

export const handler = route(customerRoutes.listPaymentInstruments, async ({ organization, params, query }) => ({
  status: 200,
  body: listReply(await listPaymentInstruments(organization.id, params.customerId, query), query),
}));
