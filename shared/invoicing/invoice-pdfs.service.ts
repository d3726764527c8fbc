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

/**
 * Renders and stores the PDFs of the invoice items `items` (new images of the table's stream; a bare port invoice has
 * none), at once. Each merchant's display name is read once for all of its invoices. Answers each item's outcome, in
 * order.
 */
export function storeInvoicePdfs(items: readonly Record<string, unknown>[]): Promise<PromiseSettledResult<void>[]> {
  const names = new Map<string, Promise<string | null>>();
  const displayNameOf = (organizationId: string): Promise<string | null> => {
    let name = names.get(organizationId);
    if (!name) {
      name = getMerchant(organizationId).then((merchant) => (merchant ? currentDisplayName(merchant) : null));
      names.set(organizationId, name);
    }
    return name;
  };
  return Promise.allSettled(
    items.map(async (item) => {
      if (!Array.isArray(item.items)) return;
      const invoice = CustomerInvoiceEntity.parse(item);
      const name = await displayNameOf(invoice.organizationId);
      if (name === null) return;
      const pdf = await renderInvoicePdf(invoice, name, invoice.status);
      await putInvoicePdf(invoicePdfKey(invoice.organizationId, invoice.id, invoice.updatedAt), pdf);
    }),
  );
}
