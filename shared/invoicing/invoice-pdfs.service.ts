/**
 * Invoice PDFs are rendered when an invoice changes, not when one is downloaded: a stream consumer
 * (`functions/invoicing/invoices/render-invoice-pdf.ts`) renders every new or changed customer invoice
 * (./invoice.pdf.ts: pdf-lib and the font) and stores it under its version (`updatedAt`), and the downloads read the
 * rendering of the invoice as it is (./invoices.service.ts `merchantInvoicePdf`). Only the renderer's function carries
 * pdf-lib and the font.
 *
 * The PDF shows the invoice's stored status (an open invoice past its due date says OPEN and its due date; the API
 * and the pages say `past_due`), and the merchant's display name as it was when the invoice last changed.
 */
import { getMerchant } from '../people/index.ts';
import { currentDisplayName } from '../organizations/index.ts';
import { invoicePdfKey, putInvoicePdf } from '../platform/storage/invoice-pdfs.ts';
import { CustomerInvoiceEntity } from './invoice.entity.ts';
import { renderInvoicePdf } from './invoice.pdf.ts';

/** Renders and stores the PDF of the invoice item `item` (a new image of the table's stream); a bare port invoice has none. */
export async function storeInvoicePdf(item: Record<string, unknown>): Promise<void> {
  if (!Array.isArray(item.items)) return;
  const invoice = CustomerInvoiceEntity.parse(item);
  const merchant = await getMerchant(invoice.organizationId);
  if (!merchant) return;
  const pdf = await renderInvoicePdf(invoice, await currentDisplayName(merchant), invoice.status);
  await putInvoicePdf(invoicePdfKey(invoice.organizationId, invoice.id, invoice.updatedAt), pdf);
}
