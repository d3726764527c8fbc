import { route } from '../../../shared/access/auth-api-key.ts';
import * as merchantRoutes from '../../../shared/routes/merchant.ts';
import { listMerchantInvoices } from '../../../shared/invoicing/invoices.service.ts';

export const handler = route(merchantRoutes.listMerchantInvoices, async ({ merchant, query }) => ({
  status: 200,
  body: await listMerchantInvoices(merchant, query),
}));
