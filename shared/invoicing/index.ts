/** The invoicing module's front door: what other modules may use (invoices, their numbers and PDFs, and the payable-invoice port). */
export { renderInvoicePdf } from './invoice.pdf.ts';
export { linkPayableOrder, markInvoicePaid, tableInvoicePort } from './invoices.repository.ts';
export { INVOICE_LIMITS, taxAmountOf } from './invoices.rules.ts';
export {
  chargeInvoice,
  chargeInvoicePaid,
  creditedChargeInvoice,
  merchantInvoicePdf,
  merchantInvoiceSummaries,
  merchantInvoiceSummariesOf,
  voidedChargeInvoice,
} from './invoices.service.ts';
export { type Invoice, type InvoicePort, isInvoiceId } from './port.ts';
