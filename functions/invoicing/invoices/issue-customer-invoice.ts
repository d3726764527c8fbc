import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as invoicingRoutes from '../../../shared/invoicing/routes.ts';
import { issueCustomerInvoice } from '../../../shared/invoicing/invoices.service.ts';

export const handler = route(invoicingRoutes.issueCustomerInvoice, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await issueCustomerInvoice(organization, params.customerInvoiceId, body)),
}));
