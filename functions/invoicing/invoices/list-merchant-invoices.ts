import { route } from '../../../shared/access/auth-api-key.ts';
import * as invoicingRoutes from '../../../shared/invoicing/routes.ts';
import { listMerchantInvoices } from '../../../shared/invoicing/invoices.service.ts';

export const handler = route(invoicingRoutes.listMerchantInvoices, async ({ merchant, query }) => ({
  status: 200,
  body: await listMerchantInvoices(merchant, query),
}));
