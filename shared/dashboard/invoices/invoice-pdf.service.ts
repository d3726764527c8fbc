/**
 * An invoice's PDF from the dashboard: a redirect to a five-minute link to the PDF stored when the invoice last
 * changed (shared/invoicing/invoice-pdfs.service.ts), so this function carries no renderer.
 */
import type { Merchant } from '../../domain/merchants.ts';
import { merchantInvoicePdfUrl } from '../../invoicing/index.ts';
import type { Reply } from '../../platform/http/types.ts';

/** The merchant's invoice's PDF, by redirect; 404 `invoice.not_found` (a page) for an id that is not one of its invoices. */
export async function invoicePdfReply(merchant: Merchant, invoiceId: string): Promise<Reply> {
  return { status: 302, headers: { location: await merchantInvoicePdfUrl(merchant, invoiceId), 'cache-control': 'no-store' } };
}
