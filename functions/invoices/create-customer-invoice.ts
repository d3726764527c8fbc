import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { createCustomerInvoice } from '../../shared/services/invoices.ts';

export const handler = route(paymentRoutes.createCustomerInvoice, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createCustomerInvoice(organization, body)),
}));
