import { route } from '../../../shared/access/auth-api-key.ts';
import * as merchantRoutes from '../../../shared/invoicing/routes.ts';
import { getMerchantInvoice } from '../../../shared/invoicing/invoices.service.ts';

export const handler = route(merchantRoutes.getMerchantInvoice, async ({ merchant, params }) => ({
  status: 200,
  body: await getMerchantInvoice(merchant, params.id!),
}));
