/**
 * The invoicing module's front door (invoices, their numbers and PDFs, and the payable-invoice port): all that other
 * modules may use of it, besides its *.schemas.ts (the pure door: schemas and the value lists they are written in).
 */
export { linkPayableOrder, markInvoicePaid, tableInvoicePort } from './invoices.repository.ts';
export { chargeInvoiceId, checkoutInvoiceId, taxAmountOf, taxPercentOf } from './invoices.rules.ts';
export { chargeInvoice, chargeInvoicePaid, creditedChargeInvoice, openChargeInvoice, voidedChargeInvoice } from './charge-invoices.service.ts';
export {
  merchantInvoicePdfUrl,
  customerInvoiceSummaries,
  issuedInvoiceSummaries,
  merchantInvoiceSummaries,
  merchantInvoiceSummariesOf,
} from './invoices.service.ts';
export { type Invoice, type InvoicePort, isInvoiceId } from './port.ts';
