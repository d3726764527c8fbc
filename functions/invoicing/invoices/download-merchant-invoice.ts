import { route } from '../../../shared/access/auth-api-key.ts';
import * as invoicingRoutes from '../../../shared/invoicing/routes.ts';
import { merchantInvoicePdf } from '../../../shared/invoicing/invoices.service.ts';

export const handler = route(invoicingRoutes.downloadMerchantInvoice, async ({ merchant, params }) => {
  const { pdf, filename } = await merchantInvoicePdf(merchant, params.id);
  return { status: 200, body: pdf, headers: { 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' } };
});
