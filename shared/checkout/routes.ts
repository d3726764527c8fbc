import { textBody } from '../customers/hosted-fields.schemas.ts';
import {
  checkoutImageNotFound,
  checkoutInvoiceNotFound,
  checkoutMerchantNotFound,
  checkoutOrderNotFound,
  checkoutPlanNotFound,
  checkoutPolicyNotFound,
  checkoutReceiptNotFound,
  orderNotFound,
  unknownPolicyType,
} from '../domain/unknown-ids.ts';
import { CHECKOUT_PAGE_SCRIPT } from '../platform/http/browser-scripts.ts';
import { linkQuery } from '../platform/http/schemas/common.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import {
  confirmPublicCheckoutPaymentRequest,
  confirmPublicOrderPaymentRequest,
  publicApiCheckoutPaymentConfirmationResponse,
  publicApiConfirmCheckoutPaymentRequest,
  publicCheckoutPaymentConfirmationResponse,
} from './checkout-confirm.schemas.ts';
import { checkoutImageBody } from '../organizations/customization.schemas.ts';
import { checkoutPoliciesResponse, createPolicyUploadRequest, policyUploadResponse, updateCheckoutPoliciesRequest } from './checkout-policies.schemas.ts';
import {
  applyPublicCheckoutPromoCodeRequest,
  applyPublicCheckoutPromoCodeResponse,
  createPublicCheckoutSessionRequest,
  previewPublicCheckoutTaxRequest,
  publicApiApplyCheckoutPromoCodeRequest,
  publicApiApplyCheckoutPromoCodeResponse,
  publicApiCheckoutByPlanResponse,
  publicApiCheckoutReceiptResponse,
  publicApiCheckoutSessionResponse,
  publicApiCreateCheckoutSessionRequest,
  publicCheckoutByInvoiceResponse,
  publicCheckoutByPlanResponse,
  publicCheckoutMerchantConfigResponse,
  publicCheckoutOrderResponse,
  publicCheckoutReceiptResponse,
  publicCheckoutSessionResponse,
  publicCheckoutTaxPreviewResponse,
} from './checkout.schemas.ts';
import { createOrderRequest, publicApiOrderResponse } from './orders.schemas.ts';

export const getMerchantCheckoutPlan = {
  face: 'merchant',
  name: 'merchant-checkout-plans-get',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/checkout/plans/{planId}',
  handler: 'functions/checkout/get-merchant-plan.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'read',
  status: 200,
  response: publicApiCheckoutByPlanResponse,
  unknownId: checkoutPlanNotFound,
  policyStorage: 'read',
  summary: "The merchant's active plan as its buyers see it at checkout (the buyer checkout plan read, with key auth and scope).",
} as const satisfies RouteDef;

export const createMerchantCheckoutSession = {
  face: 'merchant',
  name: 'merchant-checkout-plans-session',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/checkout/plans/{planId}/session',
  handler: 'functions/checkout/create-merchant-plan-session.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  body: publicApiCreateCheckoutSessionRequest,
  status: 200,
  response: publicApiCheckoutSessionResponse,
  unknownId: checkoutPlanNotFound,
  summary: "Start a checkout session of the merchant's plan for a buyer (the buyer checkout session, with key auth and scope).",
} as const satisfies RouteDef;

export const applyMerchantCheckoutPromoCode = {
  face: 'merchant',
  name: 'merchant-checkout-plans-promo-codes',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/checkout/plans/{planId}/promo-codes',
  handler: 'functions/checkout/apply-merchant-plan-promo-code.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'read',
  body: publicApiApplyCheckoutPromoCodeRequest,
  status: 200,
  response: publicApiApplyCheckoutPromoCodeResponse,
  unknownId: checkoutPlanNotFound,
  summary: "Validate a promo code for the merchant's plan and quote the discounted amounts. No charge, no redemption.",
} as const satisfies RouteDef;

export const confirmMerchantCheckout = {
  face: 'merchant',
  name: 'merchant-checkout-plans-confirm',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/checkout/plans/{planId}/confirm',
  handler: 'functions/checkout/confirm-merchant-plan.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  // Its receipt names the platform as seller of record, as the stage's configuration has it when the buyer pays.
  buildsInvoices: true,
  timeoutSeconds: 20,
  body: publicApiConfirmCheckoutPaymentRequest,
  status: 200,
  response: publicApiCheckoutPaymentConfirmationResponse,
  unknownId: checkoutPlanNotFound,
  summary: "Pay a checkout session of the merchant's plan with a card token or a saved payment instrument of the buyer.",
} as const satisfies RouteDef;

export const getMerchantCheckoutReceipt = {
  face: 'merchant',
  name: 'merchant-checkout-plans-receipt',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/checkout/plans/{planId}/receipts/{receiptId}',
  handler: 'functions/checkout/get-merchant-plan-receipt.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'read',
  status: 200,
  response: publicApiCheckoutReceiptResponse,
  unknownId: checkoutReceiptNotFound,
  summary: "The receipt of a paid checkout of the merchant's plan (same receipt id rule as buyer checkout).",
} as const satisfies RouteDef;

export const createOrder = {
  face: 'merchant',
  name: 'merchant-orders-create',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/orders',
  handler: 'functions/checkout/orders/create-order.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  body: createOrderRequest,
  idempotencyKey: 'optional',
  status: 201,
  response: publicApiOrderResponse,
  summary: 'Create an immutable order (optional Idempotency-Key, at most 255 characters: a replay answers the original order, the body is not compared).',
} as const satisfies RouteDef;

export const getOrder = {
  face: 'merchant',
  name: 'merchant-orders-get',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/orders/{orderId}',
  handler: 'functions/checkout/orders/get-order.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  status: 200,
  response: publicApiOrderResponse,
  unknownId: orderNotFound,
  summary: "Read one of the merchant's orders.",
} as const satisfies RouteDef;

// Checkout policies
export const getCheckoutPolicies = {
  face: 'organization',
  name: 'checkout-policies-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/checkout-policies',
  handler: 'functions/checkout/checkout-policies/get-policies.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'read',
  policyStorage: 'read',
  status: 200,
  response: checkoutPoliciesResponse,
  summary: "The organization's checkout policies: the four URL policies buyers see at checkout and the policy PDFs uploaded.",
} as const satisfies RouteDef;

export const updateCheckoutPolicies = {
  face: 'organization',
  name: 'checkout-policies-update',
  method: 'PUT',
  path: '/api/v1/public-api/organizations/{organizationId}/checkout-policies',
  handler: 'functions/checkout/checkout-policies/update-policies.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  policyStorage: 'read',
  body: updateCheckoutPoliciesRequest,
  status: 200,
  response: checkoutPoliciesResponse,
  summary: 'Set the URL policies (termsUrl, privacyUrl, returnPolicyUrl, eulaUrl: https URLs, null clears one, an absent one stays).',
} as const satisfies RouteDef;

export const createCheckoutPolicyUpload = {
  face: 'organization',
  name: 'checkout-policies-upload',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/checkout-policies/{policyType}/upload',
  handler: 'functions/checkout/checkout-policies/create-upload.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'read',
  policyStorage: 'write',
  body: createPolicyUploadRequest,
  status: 201,
  response: policyUploadResponse,
  unknownId: unknownPolicyType,
  summary: 'A presigned PUT (15 minutes) for a policy PDF of the given size (at most 10 MiB): terms, privacy, return-policy or eula.',
} as const satisfies RouteDef;

export const deleteCheckoutPolicyDocument = {
  face: 'organization',
  name: 'checkout-policies-delete',
  method: 'DELETE',
  path: '/api/v1/public-api/organizations/{organizationId}/checkout-policies/{policyType}',
  handler: 'functions/checkout/checkout-policies/delete-document.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'read',
  policyStorage: 'write',
  status: 204,
  response: null,
  unknownId: unknownPolicyType,
  summary: 'Remove a policy PDF; buyers then get 404 for it at checkout.',
} as const satisfies RouteDef;

/** The routes of this file by name, for the route table (`index.ts`); a handler imports its own route instead. */

export const getCheckoutMerchantConfig = {
  face: 'checkout',
  name: 'checkout-merchant-config',
  method: 'GET',
  path: '/api/v1/checkout/merchants/{merchantId}/config',
  handler: 'functions/checkout/get-merchant-config.ts',
  auth: 'none',
  group: 'checkout',
  table: 'read',
  status: 200,
  response: publicCheckoutMerchantConfigResponse,
  unknownId: checkoutMerchantNotFound,
  summary: "Bootstrap to mount hosted fields without a plan: the merchant's display name, mode, SDK and accepted payments.",
} as const satisfies RouteDef;

export const getCheckoutPlan = {
  face: 'checkout',
  name: 'checkout-plans-get',
  method: 'GET',
  path: '/api/v1/checkout/plans/{planId}',
  handler: 'functions/checkout/get-plan.ts',
  auth: 'none',
  group: 'checkout',
  table: 'read',
  status: 200,
  response: publicCheckoutByPlanResponse,
  unknownId: checkoutPlanNotFound,
  policyStorage: 'read',
  summary: 'An active plan of an active product as a buyer sees it: price, interval, trial, URL policies and mount fields.',
} as const satisfies RouteDef;

export const previewCheckoutPlanTax = {
  face: 'checkout',
  name: 'checkout-plans-tax',
  method: 'POST',
  path: '/api/v1/checkout/plans/{planId}/tax',
  handler: 'functions/checkout/preview-plan-tax.ts',
  auth: 'none',
  group: 'checkout',
  table: 'read',
  body: previewPublicCheckoutTaxRequest,
  status: 200,
  response: publicCheckoutTaxPreviewResponse,
  unknownId: checkoutPlanNotFound,
  summary: "Tax of the plan's first charge for a billing address and the amount due today; excludes any promo code. No charge.",
} as const satisfies RouteDef;

export const createCheckoutPlanSession = {
  face: 'checkout',
  name: 'checkout-plans-session',
  method: 'POST',
  path: '/api/v1/checkout/plans/{planId}/session',
  handler: 'functions/checkout/create-plan-session.ts',
  auth: 'none',
  group: 'checkout',
  table: 'readWrite',
  body: createPublicCheckoutSessionRequest,
  status: 200,
  response: publicCheckoutSessionResponse,
  unknownId: checkoutPlanNotFound,
  summary: "Start paying a plan: the buyer's e-mail, quantity and billing address; answers the session confirm takes and a client token for the hosted fields.",
} as const satisfies RouteDef;

export const applyCheckoutPlanPromoCode = {
  face: 'checkout',
  name: 'checkout-plans-promo-codes',
  method: 'POST',
  path: '/api/v1/checkout/plans/{planId}/promo-codes',
  handler: 'functions/checkout/apply-plan-promo-code.ts',
  auth: 'none',
  group: 'checkout',
  table: 'read',
  body: applyPublicCheckoutPromoCodeRequest,
  status: 200,
  response: applyPublicCheckoutPromoCodeResponse,
  unknownId: checkoutPlanNotFound,
  summary: 'Validate a promo code for the plan and quote the discounted amounts (with tax when a billing address is sent). No charge, no redemption.',
} as const satisfies RouteDef;

export const confirmCheckoutPlan = {
  face: 'checkout',
  name: 'checkout-plans-confirm',
  method: 'POST',
  path: '/api/v1/checkout/plans/{planId}/confirm',
  handler: 'functions/checkout/confirm-plan.ts',
  auth: 'none',
  group: 'checkout',
  table: 'readWrite',
  // Its receipt names the platform as seller of record, as the stage's configuration has it when the buyer pays.
  buildsInvoices: true,
  timeoutSeconds: 20,
  body: confirmPublicCheckoutPaymentRequest,
  status: 200,
  response: publicCheckoutPaymentConfirmationResponse,
  unknownId: checkoutPlanNotFound,
  summary: "Pay a plan's checkout session with a card token, redeeming a promo code; a session is paid once.",
} as const satisfies RouteDef;

export const getCheckoutPlanReceipt = {
  face: 'checkout',
  name: 'checkout-plans-receipt',
  method: 'GET',
  path: '/api/v1/checkout/plans/{planId}/receipts/{receiptId}',
  handler: 'functions/checkout/get-plan-receipt.ts',
  auth: 'none',
  group: 'checkout',
  table: 'read',
  status: 200,
  response: publicCheckoutReceiptResponse,
  unknownId: checkoutReceiptNotFound,
  summary: 'The receipt of a paid plan checkout, by transaction id (UUID v7; legacy pay_… ids until 2027-01-15).',
} as const satisfies RouteDef;

export const getCheckoutOrder = {
  face: 'checkout',
  name: 'checkout-orders-get',
  method: 'GET',
  path: '/api/v1/checkout/orders/{orderId}',
  handler: 'functions/checkout/get-order.ts',
  auth: 'none',
  group: 'checkout',
  table: 'readWrite',
  status: 200,
  response: publicCheckoutOrderResponse,
  unknownId: checkoutOrderNotFound,
  policyStorage: 'read',
  summary: 'An order as a buyer sees it: itemised lines, totals, status and mount fields.',
} as const satisfies RouteDef;

export const previewCheckoutOrderTax = {
  face: 'checkout',
  name: 'checkout-orders-tax',
  method: 'POST',
  path: '/api/v1/checkout/orders/{orderId}/tax',
  handler: 'functions/checkout/preview-order-tax.ts',
  auth: 'none',
  group: 'checkout',
  table: 'read',
  body: previewPublicCheckoutTaxRequest,
  status: 200,
  response: publicCheckoutTaxPreviewResponse,
  unknownId: checkoutOrderNotFound,
  summary: "Tax of the order's lines for a billing address and the amount due today. No charge.",
} as const satisfies RouteDef;

export const confirmCheckoutOrder = {
  face: 'checkout',
  name: 'checkout-orders-confirm',
  method: 'POST',
  path: '/api/v1/checkout/orders/{orderId}/confirm',
  handler: 'functions/checkout/confirm-order.ts',
  auth: 'none',
  group: 'checkout',
  table: 'readWrite',
  // Its receipt names the platform as seller of record, as the stage's configuration has it when the buyer pays.
  buildsInvoices: true,
  timeoutSeconds: 20,
  body: confirmPublicOrderPaymentRequest,
  status: 200,
  response: publicCheckoutPaymentConfirmationResponse,
  unknownId: checkoutOrderNotFound,
  summary: 'Pay an open order with a card token; an order is paid once (409 when paid or being paid). Takes no promo code.',
} as const satisfies RouteDef;

export const getCheckoutOrderReceipt = {
  face: 'checkout',
  name: 'checkout-orders-receipt',
  method: 'GET',
  path: '/api/v1/checkout/orders/{orderId}/receipts/{receiptId}',
  handler: 'functions/checkout/get-order-receipt.ts',
  auth: 'none',
  group: 'checkout',
  table: 'read',
  status: 200,
  response: publicCheckoutReceiptResponse,
  unknownId: checkoutReceiptNotFound,
  summary: 'The receipt of a paid order, by transaction id (UUID v7; legacy pay_… ids until 2027-01-15).',
} as const satisfies RouteDef;

export const getCheckoutInvoice = {
  face: 'checkout',
  name: 'checkout-invoices-get',
  method: 'GET',
  path: '/api/v1/checkout/invoices/{invoiceId}',
  handler: 'functions/checkout/get-invoice.ts',
  auth: 'none',
  group: 'checkout',
  table: 'readWrite',
  status: 200,
  response: publicCheckoutByInvoiceResponse,
  unknownId: checkoutInvoiceNotFound,
  policyStorage: 'read',
  summary: 'Finds or creates the payable order of an open or past_due invoice (422 checkout.invoice_not_payable otherwise).',
} as const satisfies RouteDef;

export const getCheckoutPlanPolicy = {
  face: 'checkout',
  name: 'checkout-plans-policy',
  method: 'GET',
  path: '/api/v1/checkout/plans/{planId}/policies/{policyType}',
  handler: 'functions/checkout/checkout-policies/plan-policy-redirect.ts',
  auth: 'none',
  group: 'checkout',
  table: 'read',
  policyStorage: 'read',
  status: 302,
  response: null,
  unknownId: (parameter) => (parameter === 'planId' ? checkoutPlanNotFound() : checkoutPolicyNotFound()),
  summary:
    "Redirect (302, `location`) to a fresh five-minute link to the plan seller's policy PDF (terms, privacy, return-policy or eula); 404 when there is none.",
} as const satisfies RouteDef;

export const getCheckoutOrderPolicy = {
  face: 'checkout',
  name: 'checkout-orders-policy',
  method: 'GET',
  path: '/api/v1/checkout/orders/{orderId}/policies/{policyType}',
  handler: 'functions/checkout/checkout-policies/order-policy-redirect.ts',
  auth: 'none',
  group: 'checkout',
  table: 'read',
  policyStorage: 'read',
  status: 302,
  response: null,
  unknownId: (parameter) => (parameter === 'orderId' ? checkoutOrderNotFound() : checkoutPolicyNotFound()),
  summary:
    "Redirect (302, `location`) to a fresh five-minute link to the order seller's policy PDF (terms, privacy, return-policy or eula); 404 when there is none.",
} as const satisfies RouteDef;

/** The routes of this file by name, for the route table (`index.ts`); a handler imports its own route instead. */

// Hosted checkout pages (static shells on the main origin; their script calls the buyer checkout API)
export const checkoutPlanPage = {
  face: 'dashboard-api',
  name: 'checkout-page-plan',
  method: 'GET',
  path: '/checkout/plans/{planId}',
  handler: 'functions/checkout/checkout-pages/plan-page.ts',
  auth: 'none',
  group: 'dashboard',
  table: 'none',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: textBody,
  unknownId: checkoutPlanNotFound,
  summary: 'The hosted checkout page of a plan: price, tax, promo code, policies and the hosted card fields.',
} as const satisfies RouteDef;

export const checkoutOrderPage = {
  face: 'dashboard-api',
  name: 'checkout-page-order',
  method: 'GET',
  path: '/checkout/orders/{orderId}',
  handler: 'functions/checkout/checkout-pages/order-page.ts',
  auth: 'none',
  group: 'dashboard',
  table: 'none',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: textBody,
  unknownId: checkoutOrderNotFound,
  summary: 'The hosted checkout page of an order: its lines, tax, policies and the hosted card fields.',
} as const satisfies RouteDef;

export const checkoutPageScript = {
  face: 'dashboard-api',
  name: 'checkout-page-script',
  method: 'GET',
  path: '/checkout/assets/checkout.js',
  handler: 'functions/checkout/checkout-pages/script.ts',
  auth: 'none',
  group: 'dashboard',
  table: 'none',
  status: 200,
  contentType: 'text/javascript',
  response: textBody,
  summary: "The hosted checkout pages' script.",
  // Bundled ahead from shared/checkout/browser/checkout-page.ts (infra/browser-scripts.ts) and read at run time.
  assets: [CHECKOUT_PAGE_SCRIPT],
} as const satisfies RouteDef;

/** The routes of this file by name, for the route table (`index.ts`); a handler imports its own route instead. */

// The images buyers see at checkout

export const getCheckoutImage = {
  face: 'checkout',
  name: 'checkout-images-get',
  method: 'GET',
  path: '/api/v1/checkout/merchants/{merchantId}/images/{imageId}',
  handler: 'functions/checkout/get-image.ts',
  auth: 'none',
  group: 'checkout',
  table: 'none',
  imageStorage: 'read',
  status: 200,
  contentType: 'image/*',
  response: checkoutImageBody,
  unknownId: checkoutImageNotFound,
  summary: "A merchant's logo or product image (PNG, JPEG or WebP), cacheable for a year; an image over 4 MiB is a 302 to a short-lived storage link.",
} as const satisfies RouteDef;
