import { route } from '../../../shared/access/auth-api-key.ts';
import * as invoicingRoutes from '../../../shared/invoicing/routes.ts';
import { getMerchantInvoice } from '../../../shared/invoicing/invoices.service.ts';

export const handler = route(invoicingRoutes.getMerchantInvoice, async ({ merchant, params }) => ({
  status: 200,
  body: await getMerchantInvoice(merchant, params.id),
}));
