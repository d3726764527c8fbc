/**
 * An invoice's PDF from the dashboard: the merchant API download's own renderer (pdf-lib and the font), so this
 * function, like that one, carries them (the bundle benchmark reports it apart); the list page does not.
 */
import type { Merchant } from '../../domain/merchants.ts';
import { renderInvoicePdf, merchantInvoicePdf } from '../../invoicing/index.ts';
import type { Reply } from '../../platform/http/types.ts';

/** The merchant's invoice as a PDF attachment; 404 `invoice.not_found` (a page) for an id that is not one of its invoices. */
export async function invoicePdfReply(merchant: Merchant, invoiceId: string): Promise<Reply> {
  const { pdf, filename } = await merchantInvoicePdf(merchant, invoiceId, renderInvoicePdf);
  return { status: 200, body: pdf, headers: { 'content-disposition': `attachment; filename="${filename}"`, 'cache-control': 'no-store' } };
}
