/**
 * Buyer checkout (public, no auth; ids are unguessable), under `/api/v1/checkout`. Every answer carries CORS
 * headers that let any origin read it, never with credentials (`shared/platform/http/cors.ts`). All of them are in the
 * `checkout` group, so their one CORS preflight route is deployed once, beside them.
 */
import {
  applyPublicCheckoutPromoCodeRequest, applyPublicCheckoutPromoCodeResponse, confirmPublicCheckoutPaymentRequest, confirmPublicOrderPaymentRequest,
  createPublicCheckoutSessionRequest, previewPublicCheckoutTaxRequest, publicCheckoutByInvoiceResponse, publicCheckoutByPlanResponse,
  publicCheckoutMerchantConfigResponse, publicCheckoutOrderResponse, publicCheckoutPaymentConfirmationResponse, publicCheckoutReceiptResponse,
  publicCheckoutSessionResponse, publicCheckoutTaxPreviewResponse,
} from '../checkout/checkout.schemas.ts';
import {
  checkoutInvoiceNotFound, checkoutMerchantNotFound, checkoutOrderNotFound, checkoutPlanNotFound, checkoutPolicyNotFound, checkoutReceiptNotFound,
} from '../domain/unknown-ids.ts';
import type { RouteDef } from './types.ts';

export const getCheckoutMerchantConfig = {
  face: 'checkout', name: 'checkout-merchant-config', method: 'GET', path: '/api/v1/checkout/merchants/{merchantId}/config',
  handler: 'functions/checkout/get-merchant-config.ts', auth: 'none', group: 'checkout', table: 'read',
  status: 200, response: publicCheckoutMerchantConfigResponse,
  unknownId: checkoutMerchantNotFound,
  summary: 'Bootstrap to mount hosted fields without a plan: the merchant\'s display name, mode, SDK and accepted payments.',
} as const satisfies RouteDef;

export const getCheckoutPlan = {
  face: 'checkout', name: 'checkout-plans-get', method: 'GET', path: '/api/v1/checkout/plans/{planId}',
  handler: 'functions/checkout/get-plan.ts', auth: 'none', group: 'checkout', table: 'read',
  status: 200, response: publicCheckoutByPlanResponse,
  unknownId: checkoutPlanNotFound,
  summary: 'An active plan of an active product as a buyer sees it: price, interval, trial, URL policies and mount fields.',
} as const satisfies RouteDef;

export const previewCheckoutPlanTax = {
  face: 'checkout', name: 'checkout-plans-tax', method: 'POST', path: '/api/v1/checkout/plans/{planId}/tax',
  handler: 'functions/checkout/preview-plan-tax.ts', auth: 'none', group: 'checkout', table: 'read',
  body: previewPublicCheckoutTaxRequest, status: 200, response: publicCheckoutTaxPreviewResponse,
  unknownId: checkoutPlanNotFound,
  summary: 'Tax of the plan\'s first charge for a billing address and the amount due today; excludes any promo code. No charge.',
} as const satisfies RouteDef;

export const createCheckoutPlanSession = {
  face: 'checkout', name: 'checkout-plans-session', method: 'POST', path: '/api/v1/checkout/plans/{planId}/session',
  handler: 'functions/checkout/create-plan-session.ts', auth: 'none', group: 'checkout', table: 'readWrite',
  body: createPublicCheckoutSessionRequest, status: 200, response: publicCheckoutSessionResponse,
  unknownId: checkoutPlanNotFound,
  summary: 'Start paying a plan: the buyer\'s e-mail, quantity and billing address; answers the session confirm takes and a client token for the hosted fields.',
} as const satisfies RouteDef;

export const applyCheckoutPlanPromoCode = {
  face: 'checkout', name: 'checkout-plans-promo-codes', method: 'POST', path: '/api/v1/checkout/plans/{planId}/promo-codes',
  handler: 'functions/checkout/apply-plan-promo-code.ts', auth: 'none', group: 'checkout', table: 'read',
  body: applyPublicCheckoutPromoCodeRequest, status: 200, response: applyPublicCheckoutPromoCodeResponse,
  unknownId: checkoutPlanNotFound,
  summary: 'Validate a promo code for the plan and quote the discounted amounts (with tax when a billing address is sent). No charge, no redemption.',
} as const satisfies RouteDef;

export const confirmCheckoutPlan = {
  face: 'checkout', name: 'checkout-plans-confirm', method: 'POST', path: '/api/v1/checkout/plans/{planId}/confirm',
  handler: 'functions/checkout/confirm-plan.ts', auth: 'none', group: 'checkout', table: 'readWrite', timeoutSeconds: 20,
  body: confirmPublicCheckoutPaymentRequest, status: 200, response: publicCheckoutPaymentConfirmationResponse,
  unknownId: checkoutPlanNotFound,
  summary: 'Pay a plan\'s checkout session with a card token, redeeming a promo code; a session is paid once.',
} as const satisfies RouteDef;

export const getCheckoutPlanReceipt = {
  face: 'checkout', name: 'checkout-plans-receipt', method: 'GET', path: '/api/v1/checkout/plans/{planId}/receipts/{receiptId}',
  handler: 'functions/checkout/get-plan-receipt.ts', auth: 'none', group: 'checkout', table: 'read',
  status: 200, response: publicCheckoutReceiptResponse,
  unknownId: checkoutReceiptNotFound,
  summary: 'The receipt of a paid plan checkout, by transaction id (UUID v7; legacy pay_… ids until 2027-01-15).',
} as const satisfies RouteDef;

export const getCheckoutOrder = {
  face: 'checkout', name: 'checkout-orders-get', method: 'GET', path: '/api/v1/checkout/orders/{orderId}',
  handler: 'functions/checkout/get-order.ts', auth: 'none', group: 'checkout', table: 'readWrite',
  status: 200, response: publicCheckoutOrderResponse,
  unknownId: checkoutOrderNotFound,
  summary: 'An order as a buyer sees it: itemised lines, totals, status and mount fields.',
} as const satisfies RouteDef;

export const previewCheckoutOrderTax = {
  face: 'checkout', name: 'checkout-orders-tax', method: 'POST', path: '/api/v1/checkout/orders/{orderId}/tax',
  handler: 'functions/checkout/preview-order-tax.ts', auth: 'none', group: 'checkout', table: 'read',
  body: previewPublicCheckoutTaxRequest, status: 200, response: publicCheckoutTaxPreviewResponse,
  unknownId: checkoutOrderNotFound,
  summary: 'Tax of the order\'s lines for a billing address and the amount due today. No charge.',
} as const satisfies RouteDef;

export const confirmCheckoutOrder = {
  face: 'checkout', name: 'checkout-orders-confirm', method: 'POST', path: '/api/v1/checkout/orders/{orderId}/confirm',
  handler: 'functions/checkout/confirm-order.ts', auth: 'none', group: 'checkout', table: 'readWrite', timeoutSeconds: 20,
  body: confirmPublicOrderPaymentRequest, status: 200, response: publicCheckoutPaymentConfirmationResponse,
  unknownId: checkoutOrderNotFound,
  summary: 'Pay an open order with a card token; an order is paid once (409 when paid or being paid). Takes no promo code.',
} as const satisfies RouteDef;

export const getCheckoutOrderReceipt = {
  face: 'checkout', name: 'checkout-orders-receipt', method: 'GET', path: '/api/v1/checkout/orders/{orderId}/receipts/{receiptId}',
  handler: 'functions/checkout/get-order-receipt.ts', auth: 'none', group: 'checkout', table: 'read',
  status: 200, response: publicCheckoutReceiptResponse,
  unknownId: checkoutReceiptNotFound,
  summary: 'The receipt of a paid order, by transaction id (UUID v7; legacy pay_… ids until 2027-01-15).',
} as const satisfies RouteDef;

export const getCheckoutInvoice = {
  face: 'checkout', name: 'checkout-invoices-get', method: 'GET', path: '/api/v1/checkout/invoices/{invoiceId}',
  handler: 'functions/checkout/get-invoice.ts', auth: 'none', group: 'checkout', table: 'readWrite',
  status: 200, response: publicCheckoutByInvoiceResponse,
  unknownId: checkoutInvoiceNotFound,
  summary: 'Finds or creates the payable order of an open or past_due invoice (422 checkout.invoice_not_payable otherwise).',
} as const satisfies RouteDef;

export const getCheckoutPlanPolicy = {
  face: 'checkout', name: 'checkout-plans-policy', method: 'GET', path: '/api/v1/checkout/plans/{planId}/policies/{policyType}',
  handler: 'functions/checkout/checkout-policies/plan-policy-redirect.ts', auth: 'none', group: 'checkout', table: 'read', policyStorage: 'read',
  status: 302, response: null,
  unknownId: checkoutPolicyNotFound,
  summary: 'Redirect (302, `location`) to a fresh five-minute link to the plan seller\'s policy PDF (terms, privacy, return-policy or eula); 404 when there is none.',
} as const satisfies RouteDef;

export const getCheckoutOrderPolicy = {
  face: 'checkout', name: 'checkout-orders-policy', method: 'GET', path: '/api/v1/checkout/orders/{orderId}/policies/{policyType}',
  handler: 'functions/checkout/checkout-policies/order-policy-redirect.ts', auth: 'none', group: 'checkout', table: 'read', policyStorage: 'read',
  status: 302, response: null,
  unknownId: checkoutPolicyNotFound,
  summary: 'Redirect (302, `location`) to a fresh five-minute link to the order seller\'s policy PDF (terms, privacy, return-policy or eula); 404 when there is none.',
} as const satisfies RouteDef;

/** The routes of this file by name, for the route table (`index.ts`); a handler imports its own route instead. */
export const checkoutRoutes = {
  getCheckoutMerchantConfig,
  getCheckoutPlan,
  previewCheckoutPlanTax,
  createCheckoutPlanSession,
  applyCheckoutPlanPromoCode,
  confirmCheckoutPlan,
  getCheckoutPlanReceipt,
  getCheckoutOrder,
  previewCheckoutOrderTax,
  confirmCheckoutOrder,
  getCheckoutOrderReceipt,
  getCheckoutInvoice,
  getCheckoutPlanPolicy,
  getCheckoutOrderPolicy,
};
