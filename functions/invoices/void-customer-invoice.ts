import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { voidCustomerInvoice } from '../../shared/services/invoices.ts';

export const handler = route(paymentRoutes.voidCustomerInvoice, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await voidCustomerInvoice(organization, params.customerInvoiceId!)),
}));
