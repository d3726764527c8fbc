/** The API reference's entries of the invoicing routes (`shared/invoicing/routes.ts`), read only by the OpenAPI document's builder. */
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const invoicingDocs = {
  listMerchantInvoices: {
    description:
      "The merchant's customer invoices (made through the organization API and by subscription charges), newest first: filtered by `status` (`past_due` is an `open` invoice past its due date, computed on each read) and `search` (part of the number, the buyer's name or the customer id), a page (`page` ≥ 1, `limit` 1–100) at a time.",
    example: { params: { merchantId: ids.merchantId }, query: { status: 'paid', page: '1', limit: '20' } },
  },
  getMerchantInvoice: {
    description:
      "One of the merchant's customer invoices: number, status, dates, items with their tax, buyer, the platform as seller of record, and totals in major units.",
    example: { params: { merchantId: ids.merchantId, id: ids.issuedInvoiceId } },
  },
  downloadMerchantInvoice: {
    description:
      'The invoice as a PDF (`content-disposition: attachment; filename="<number>.pdf"`, `<id>.pdf` for a draft): the platform as seller of record, the merchant it sells for, the buyer, the dates, the items with their tax and the totals. A one-page invoice is about 11 KB.',
    example: { params: { merchantId: ids.merchantId, id: ids.issuedInvoiceId } },
  },
  // Customer invoices
  createCustomerInvoice: {
    description:
      "Creates a draft invoice (`inv_…`, no number yet) with the platform as seller of record. Each item's `amount` is quantity × unit price and its tax `amount × taxRate / 100`, rounded once to the minor unit, half to even; `totalAmount` adds the taxes and the untaxed `shippingFee`. Amounts are major units of `currency`. Issue the draft to number it and make it payable; no webhook is sent for invoices.",
    example: {
      params: { organizationId: ids.organizationId },
      body: {
        currency: 'EUR',
        customerId: ids.customerId,
        buyer: { name: 'Ada Lovelace', address: 'Hauptstraße 1', city: 'Berlin', zip: '10115', country: 'DE' },
        items: [
          { description: 'Pro plan, annual licence', quantity: 1, unitPrice: 240, taxRate: 19 },
          { description: 'Onboarding workshop', quantity: 2, unitPrice: 150, taxRate: 19 },
        ],
        shippingFee: 0,
        organizationTaxNumber: { type: 'vat', value: 'DE123456789' },
      },
    },
    errors: [
      { status: 404, code: 'customer.not_found', when: "`customerId` is not one of the organization's customers." },
      { status: 422, code: 'customer_invoice.amount_over_limit', when: "The invoice's total is above 10,000,000 major units." },
    ],
  },
  getCustomerInvoice: {
    description:
      'One customer invoice of the organization: its number (null for a draft), items, totals, buyer, seller of record and status. An `open` invoice whose `dueDate` has passed shows `past_due`, computed on every read. The merchant API renders the same invoice as a PDF (`GET /api/v1/public-api/merchants/{merchantId}/invoices/{id}/download`).',
    example: { params: { organizationId: ids.organizationId, customerInvoiceId: ids.customerInvoiceId } },
  },
  issueCustomerInvoice: {
    description:
      "Issues a draft: it becomes `open`, with `issuedAt` and `dueAt` as its dates (`dueAt` not before `issuedAt`) and the organization's next number (`INV-000001`, `INV-000002`, …: unique, in order and without gaps, also when invoices are issued at once). The platform, as seller of record, taxes it as it issues it: every line at the standard rate of where the buyer is (`buyer.country`, and `buyer.state` in the US and Canada), whatever rates the draft gave, so the issued invoice's `taxRate`, `taxAmount`, `totalTax` and `totalAmount` are those it owes. An open invoice can be paid through checkout by invoice.",
    example: {
      params: { organizationId: ids.organizationId, customerInvoiceId: ids.customerInvoiceIdToIssue },
      body: { issuedAt: '2026-12-01T09:00:00.000Z', dueAt: '2026-12-31T23:59:59.000Z' },
    },
    errors: [
      { status: 409, code: 'customer_invoice.busy', when: 'Too many invoices of the organization were being issued at once; try again.' },
      { status: 422, code: 'customer_invoice.not_draft', when: 'The invoice is not a draft (`details.status`).' },
      {
        status: 422,
        code: 'customer_invoice.buyer_country_required',
        when: "The buyer has no country: the tax the platform owes on the invoice depends on where the buyer is. Update the draft's `buyer` first.",
      },
      {
        status: 422,
        code: 'checkout.tax_unavailable',
        when: 'No tax rate is known where the buyer is: a country the platform does not sell to, a country that is not a code, or a US or Canadian buyer without `state` (`details.reason`).',
      },
      { status: 422, code: 'customer_invoice.amount_over_limit', when: "The draft's total with the tax of the buyer's place is above the limit." },
    ],
  },
  voidCustomerInvoice: {
    description:
      'Voids a `draft`, `open`, `past_due` or `uncollectible` invoice: an issued one keeps its number, and its checkout order can no longer be paid. Voiding a voided invoice answers it unchanged; a paid invoice cannot be voided.',
    example: { params: { organizationId: ids.organizationId, customerInvoiceId: ids.customerInvoiceIdToVoid } },
    errors: [
      {
        status: 409,
        code: 'customer_invoice.payment_in_progress',
        when: "A buyer's payment of the invoice is being processed; try again once it has settled.",
      },
      { status: 409, code: 'customer_invoice.busy', when: 'The invoice kept changing (issued, its checkout order made) while it was being closed; try again.' },
      { status: 422, code: 'customer_invoice.not_voidable', when: 'The invoice is paid.' },
      { status: 422, code: 'customer_invoice.subscription_invoice', when: "A subscription's invoice (`SUB-`): its subscription closes it." },
    ],
  },
  markCustomerInvoiceUncollectible: {
    description:
      'The organization gives up collecting an `open` or `past_due` invoice: it becomes `uncollectible` and its checkout order can no longer be paid. It can still be voided afterwards; marking an uncollectible invoice again answers it unchanged.',
    example: { params: { organizationId: ids.organizationId, customerInvoiceId: ids.customerInvoiceIdToMarkUncollectible } },
    errors: [
      {
        status: 409,
        code: 'customer_invoice.payment_in_progress',
        when: "A buyer's payment of the invoice is being processed; try again once it has settled.",
      },
      { status: 409, code: 'customer_invoice.busy', when: 'The invoice kept changing (its checkout order made) while it was being closed; try again.' },
      { status: 422, code: 'customer_invoice.not_open', when: 'The invoice is a draft, paid or voided (`details.status`).' },
      { status: 422, code: 'customer_invoice.subscription_invoice', when: "A subscription's invoice (`SUB-`): its subscription closes it." },
    ],
  },
} satisfies ModuleDocs<typeof routes>;
