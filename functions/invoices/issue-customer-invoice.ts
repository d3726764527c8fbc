import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { issueCustomerInvoice } from '../../shared/services/invoices.ts';

export const handler = route(paymentRoutes.issueCustomerInvoice, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await issueCustomerInvoice(organization, params.customerInvoiceId!, body)),
}));
