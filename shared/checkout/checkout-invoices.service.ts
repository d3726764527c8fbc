/**
 * Checkout by invoice (`GET /api/v1/checkout/invoices/{invoiceId}`): finds or creates the order a buyer pays a
 * payable invoice with (shared/checkout/invoice-payable.rules.ts), read through the invoice port.
 *
 * One order per invoice, even under concurrent requests: the order is created in one `TransactWriteItems` with
 * the invoice's link to it (`payableOrderId`, set only while absent and while the invoice is payable). Of
 * concurrent requests one writes; every other re-reads the invoice and answers the winner's order. The answer
 * is the checkout order read of that order (`checkoutOrder`: the itemised order and the mount fields).
 */
import { config } from '../platform/config.ts';
import { cancellationReasons, type NamedParts, partReasons, transactWrite } from '../platform/db/transactions.ts';
import { linkPayableOrder, tableInvoicePort, isInvoiceId, type Invoice, type InvoicePort } from '../invoicing/index.ts';
import { getMerchant } from '../people/index.ts';
import * as orders from './orders.repository.ts';
import { UnprocessableError } from '../domain/errors.ts';
import { newOrderId, priceLine, type Order, type OrderLine } from './orders.rules.ts';
import { checkoutInvoiceNotFound } from '../domain/unknown-ids.ts';
import { isPayable } from './invoice-payable.rules.ts';
import { checkoutOrder, type CheckoutContext } from './checkout.service.ts';

/** 422 `checkout.invoice_not_payable`: the details hold the invoice's status and no other invoice field. */
const notPayable = (invoice: Invoice) =>
  new UnprocessableError(
    'checkout.invoice_not_payable',
    'This invoice cannot be paid at checkout: it is not open or past due, its currency is not supported, its amount is above the order limit, or it bills a subscription (whose own charges pay it).',
    { status: invoice.status },
  );

/**
 * The order's lines, before the invoice's tax: the invoice's own when they and its tax add up to its amount due,
 * else one line for the whole amount less the tax.
 */
function linesOf(invoice: Invoice): OrderLine[] {
  const beforeTax = invoice.amountDueMinor - (invoice.taxMinor ?? 0);
  const own = (invoice.lines ?? []).map((l) =>
    priceLine({ type: 'custom', planId: null, description: l.description, quantity: l.quantity, unitAmount: l.unitAmountMinor }),
  );
  if (own.length > 0 && own.reduce((sum, l) => sum + l.amount, 0) === beforeTax) return own;
  return [priceLine({ type: 'custom', planId: null, description: `Invoice ${invoice.id}`, quantity: 1, unitAmount: beforeTax })];
}

/** How many times a request re-reads after losing the race (the winner's write is committed when it is cancelled). */
const RACE_READS = 3;

/**
 * The payable order of `invoiceId`. 404 `checkout.invoice_not_found` for unknown and malformed ids (no table
 * call) and for invoices of merchants outside this deployment; 422 `checkout.invoice_not_payable` otherwise.
 */
export async function checkoutByInvoice(invoiceId: string, ctx: CheckoutContext, port: InvoicePort = tableInvoicePort, now = new Date().toISOString()) {
  if (!isInvoiceId(invoiceId)) throw checkoutInvoiceNotFound();
  let invoice = await port.getInvoice(invoiceId);
  if (!invoice) throw checkoutInvoiceNotFound();
  const merchant = await getMerchant(invoice.merchantId);
  if (!merchant || merchant.mode !== config.mode) throw checkoutInvoiceNotFound();
  for (let read = 0; read <= RACE_READS; read++) {
    if (!isPayable(invoice)) throw notPayable(invoice);
    if (invoice.payableOrderId) return checkoutOrder(invoice.payableOrderId, ctx);
    const lines = linesOf(invoice);
    const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
    const includedTaxMinor = invoice.taxMinor ?? 0;
    const order: Order = {
      id: newOrderId(),
      merchantId: invoice.merchantId,
      status: 'open',
      currency: invoice.currency,
      lines,
      subtotal,
      total: subtotal + includedTaxMinor,
      customerEmail: null,
      idempotencyKey: null,
      createdAt: now,
      paidAt: null,
      transactionId: null,
      invoiceId: invoice.id,
      includedTaxMinor,
    };
    const parts: NamedParts<'order' | 'link'> = [
      ['order', [orders.putNewOrder(order)]],
      ['link', [linkPayableOrder(invoice.id, order.id)]],
    ];
    try {
      await transactWrite(parts);
      return checkoutOrder(order.id, ctx);
    } catch (e) {
      const reasons = cancellationReasons(e);
      if (
        !reasons ||
        !partReasons(reasons, parts)
          .get('link')
          ?.some((r) => r !== 'None')
      )
        throw e;
      // Another request linked its order first, or the invoice changed: decide again on what it is now.
      invoice = await port.getInvoice(invoiceId);
      if (!invoice) throw checkoutInvoiceNotFound();
    }
  }
  throw new Error(`Invoice ${invoiceId} kept changing while its payable order was made`);
}
