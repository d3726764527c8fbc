import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { getCustomerInvoice } from '../../shared/services/invoices.ts';

export const handler = route(paymentRoutes.getCustomerInvoice, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getCustomerInvoice(organization, params.customerInvoiceId!)),
}));
