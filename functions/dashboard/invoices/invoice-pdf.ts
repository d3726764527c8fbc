import { route } from '../../../shared/access/auth-session-page.ts';
import { invoicePdfReply } from '../../../shared/dashboard/invoices/invoice-pdf.service.ts';
import * as pages from '../../../shared/dashboard/invoices/routes.ts';

export const handler = route(pages.invoicePdfDownload, ({ merchant, params }) => invoicePdfReply(merchant, params.invoiceId));
