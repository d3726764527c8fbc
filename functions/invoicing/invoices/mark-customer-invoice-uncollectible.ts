import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as invoicingRoutes from '../../../shared/invoicing/routes.ts';
import { markCustomerInvoiceUncollectible } from '../../../shared/invoicing/invoices.service.ts';

export const handler = route(invoicingRoutes.markCustomerInvoiceUncollectible, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await markCustomerInvoiceUncollectible(organization, params.customerInvoiceId)),
}));
