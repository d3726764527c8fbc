/**
 * Buyer checkout (public, no auth; ids are unguessable), under `/api/v1/checkout`. Every answer carries CORS
 * headers that let any origin read it, never with credentials (`shared/http/cors.ts`). All of them are in the
 * `checkout` group, so their one CORS preflight route is deployed once, beside them.
 */
import {
  previewPublicCheckoutTaxRequest, publicCheckoutByInvoiceResponse, publicCheckoutByPlanResponse, publicCheckoutMerchantConfigResponse,
  publicCheckoutOrderResponse, publicCheckoutTaxPreviewResponse,
} from '../schemas/checkout.ts';
import { faceRoutes } from './types.ts';

const base = '/api/v1/checkout';

export const checkoutRoutes = faceRoutes('checkout', {
  getCheckoutMerchantConfig: {
    name: 'checkout-merchant-config', method: 'GET', path: `${base}/merchants/{merchantId}/config`,
    handler: 'functions/checkout/get-merchant-config.ts', auth: 'none', group: 'checkout', table: 'read',
    status: 200, response: publicCheckoutMerchantConfigResponse,
    summary: 'Bootstrap to mount hosted fields without a plan: the merchant\'s display name, mode, SDK and accepted payments.',
  },
  getCheckoutPlan: {
    name: 'checkout-plans-get', method: 'GET', path: `${base}/plans/{planId}`,
    handler: 'functions/checkout/get-plan.ts', auth: 'none', group: 'checkout', table: 'read',
    status: 200, response: publicCheckoutByPlanResponse,
    summary: 'An active plan of an active product as a buyer sees it: price, interval, trial, URL policies and mount fields.',
  },
  previewCheckoutPlanTax: {
    name: 'checkout-plans-tax', method: 'POST', path: `${base}/plans/{planId}/tax`,
    handler: 'functions/checkout/preview-plan-tax.ts', auth: 'none', group: 'checkout', table: 'read',
    body: previewPublicCheckoutTaxRequest, status: 200, response: publicCheckoutTaxPreviewResponse,
    summary: 'Tax of the plan\'s first charge for a billing address and the amount due today; excludes any promo code. No charge.',
  },
  getCheckoutOrder: {
    name: 'checkout-orders-get', method: 'GET', path: `${base}/orders/{orderId}`,
    handler: 'functions/checkout/get-order.ts', auth: 'none', group: 'checkout', table: 'read',
    status: 200, response: publicCheckoutOrderResponse,
    summary: 'An order as a buyer sees it: itemised lines, totals, status and mount fields.',
  },
  previewCheckoutOrderTax: {
    name: 'checkout-orders-tax', method: 'POST', path: `${base}/orders/{orderId}/tax`,
    handler: 'functions/checkout/preview-order-tax.ts', auth: 'none', group: 'checkout', table: 'read',
    body: previewPublicCheckoutTaxRequest, status: 200, response: publicCheckoutTaxPreviewResponse,
    summary: 'Tax of the order\'s lines for a billing address and the amount due today. No charge.',
  },
  getCheckoutInvoice: {
    name: 'checkout-invoices-get', method: 'GET', path: `${base}/invoices/{invoiceId}`,
    handler: 'functions/checkout/get-invoice.ts', auth: 'none', group: 'checkout', table: 'readWrite',
    status: 200, response: publicCheckoutByInvoiceResponse,
    summary: 'Finds or creates the payable order of an open or past_due invoice (422 checkout.invoice_not_payable otherwise).',
  },
});
