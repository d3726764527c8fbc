import { route } from '../../../shared/access/auth-api-key.ts';
import * as merchantRoutes from '../../../shared/invoicing/routes.ts';
import { listMerchantInvoices } from '../../../shared/invoicing/invoices.service.ts';

export const handler = route(merchantRoutes.listMerchantInvoices, async ({ merchant, query }) => ({
  status: 200,
  body: await listMerchantInvoices(merchant, query),
}));
