import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as invoicingRoutes from '../../../shared/invoicing/routes.ts';
import { createCustomerInvoice } from '../../../shared/invoicing/invoices.service.ts';

export const handler = route(invoicingRoutes.createCustomerInvoice, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createCustomerInvoice(organization, body)),
}));
