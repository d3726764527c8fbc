import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as invoicingRoutes from '../../../shared/invoicing/routes.ts';
import { getCustomerInvoice } from '../../../shared/invoicing/invoices.service.ts';

export const handler = route(invoicingRoutes.getCustomerInvoice, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getCustomerInvoice(organization, params.customerInvoiceId)),
}));
