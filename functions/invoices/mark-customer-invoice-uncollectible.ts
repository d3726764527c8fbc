import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { markCustomerInvoiceUncollectible } from '../../shared/services/invoices.ts';

export const handler = route(paymentRoutes.markCustomerInvoiceUncollectible, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await markCustomerInvoiceUncollectible(organization, params.customerInvoiceId!)),
}));
