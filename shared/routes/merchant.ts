/** The Merchant Public API (`Authorization: Bearer mor_…`), under `/api/v1/public-api/merchants`. */
import {
  apiKeySummaries, assignMerchantMemberRequest, assignMerchantMemberResponse, createApiKeyRequest, createApiKeyResponse,
  createMerchantRequest, createMerchantResponse, getMerchantResponse, merchantJoinLinkResponse, updateMerchantWebsiteUrlRequest,
  updateMerchantWebsiteUrlResponse,
} from '../platform/http/schemas/merchant-api.ts';
import { merchantCustomerListQuery, publicApiCustomer, publicApiCustomerListResponse } from '../customers/customers.schemas.ts';
import { merchantProductListQuery, publicApiProductListResponse } from '../catalog/products.schemas.ts';
import { createOrderRequest, publicApiOrderResponse } from '../checkout/orders.schemas.ts';
import {
  publicApiApplyCheckoutPromoCodeRequest, publicApiApplyCheckoutPromoCodeResponse, publicApiCheckoutByPlanResponse,
  publicApiCheckoutPaymentConfirmationResponse, publicApiCheckoutReceiptResponse, publicApiCheckoutSessionResponse,
  publicApiConfirmCheckoutPaymentRequest, publicApiCreateCheckoutSessionRequest,
} from '../checkout/checkout.schemas.ts';
import { publicApiBalanceSummaryResponse } from '../money/balances.schemas.ts';
import {
  advancePayoutRequest, publicApiPayoutMethodsResponse, publicApiRequestPayoutBody, publicApiRequestPayoutResponse,
} from '../money/payouts.schemas.ts';
import { invoicePdf, merchantInvoiceListQuery, publicApiInvoice, publicApiInvoiceListResponse } from '../invoicing/invoices.schemas.ts';
import { FONT_ASSET } from '../platform/pdf/font.ts';
import {
  checkoutPlanNotFound, checkoutReceiptNotFound, customerNotFound, merchantApiKeyNotFound, merchantInvoiceNotFound, orderNotFound, payoutNotFound,
} from '../domain/unknown-ids.ts';
import type { RouteDef } from './types.ts';

export const createMerchant = {
  face: 'merchant', name: 'merchants-create', method: 'POST', path: '/api/v1/public-api/merchants', handler: 'functions/people/merchants/create-merchant.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', body: createMerchantRequest, status: 201, response: createMerchantResponse,
  summary: 'Create a sub-merchant of the calling key\'s merchant.',
} as const satisfies RouteDef;

export const getMerchantCheckoutPlan = {
  face: 'merchant', name: 'merchant-checkout-plans-get', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/checkout/plans/{planId}',
  handler: 'functions/checkout/get-merchant-plan.ts', auth: 'apiKey', group: 'merchants', table: 'read',
  status: 200, response: publicApiCheckoutByPlanResponse,
  unknownId: checkoutPlanNotFound,
  summary: 'The merchant\'s active plan as its buyers see it at checkout (the buyer checkout plan read, with key auth and scope).',
} as const satisfies RouteDef;

export const createMerchantCheckoutSession = {
  face: 'merchant', name: 'merchant-checkout-plans-session', method: 'POST', path: '/api/v1/public-api/merchants/{merchantId}/checkout/plans/{planId}/session',
  handler: 'functions/checkout/create-merchant-plan-session.ts', auth: 'apiKey', group: 'merchants', table: 'readWrite',
  body: publicApiCreateCheckoutSessionRequest, status: 200, response: publicApiCheckoutSessionResponse,
  unknownId: checkoutPlanNotFound,
  summary: 'Start a checkout session of the merchant\'s plan for a buyer (the buyer checkout session, with key auth and scope).',
} as const satisfies RouteDef;

export const applyMerchantCheckoutPromoCode = {
  face: 'merchant', name: 'merchant-checkout-plans-promo-codes', method: 'POST', path: '/api/v1/public-api/merchants/{merchantId}/checkout/plans/{planId}/promo-codes',
  handler: 'functions/checkout/apply-merchant-plan-promo-code.ts', auth: 'apiKey', group: 'merchants', table: 'read',
  body: publicApiApplyCheckoutPromoCodeRequest, status: 200, response: publicApiApplyCheckoutPromoCodeResponse,
  unknownId: checkoutPlanNotFound,
  summary: 'Validate a promo code for the merchant\'s plan and quote the discounted amounts. No charge, no redemption.',
} as const satisfies RouteDef;

export const confirmMerchantCheckout = {
  face: 'merchant', name: 'merchant-checkout-plans-confirm', method: 'POST', path: '/api/v1/public-api/merchants/{merchantId}/checkout/plans/{planId}/confirm',
  handler: 'functions/checkout/confirm-merchant-plan.ts', auth: 'apiKey', group: 'merchants', table: 'readWrite', timeoutSeconds: 20,
  body: publicApiConfirmCheckoutPaymentRequest, status: 200, response: publicApiCheckoutPaymentConfirmationResponse,
  unknownId: checkoutPlanNotFound,
  summary: 'Pay a checkout session of the merchant\'s plan with a card token or a saved payment instrument of the buyer.',
} as const satisfies RouteDef;

export const getMerchantCheckoutReceipt = {
  face: 'merchant', name: 'merchant-checkout-plans-receipt', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/checkout/plans/{planId}/receipts/{receiptId}',
  handler: 'functions/checkout/get-merchant-plan-receipt.ts', auth: 'apiKey', group: 'merchants', table: 'read',
  status: 200, response: publicApiCheckoutReceiptResponse,
  unknownId: checkoutReceiptNotFound,
  summary: 'The receipt of a paid checkout of the merchant\'s plan (same receipt id rule as buyer checkout).',
} as const satisfies RouteDef;

export const getMerchant = {
  face: 'merchant', name: 'merchants-get', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}', handler: 'functions/people/merchants/get-merchant.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', status: 200, response: getMerchantResponse,
  summary: 'Read a merchant with owner and activation status.',
} as const satisfies RouteDef;

export const updateMerchant = {
  face: 'merchant', name: 'merchants-update', method: 'PATCH', path: '/api/v1/public-api/merchants/{merchantId}', handler: 'functions/people/merchants/update-merchant.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', body: updateMerchantWebsiteUrlRequest, status: 200, response: updateMerchantWebsiteUrlResponse,
  summary: 'Update the merchant website URL.',
} as const satisfies RouteDef;

export const listApiKeys = {
  face: 'merchant', name: 'api-keys-list', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/api-keys', handler: 'functions/people/api-keys/list-api-keys.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', status: 200, response: apiKeySummaries,
  summary: 'List API key summaries (never secrets).',
} as const satisfies RouteDef;

export const createApiKey = {
  face: 'merchant', name: 'api-keys-create', method: 'POST', path: '/api/v1/public-api/merchants/{merchantId}/api-keys', handler: 'functions/people/api-keys/create-api-key.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', body: createApiKeyRequest, status: 201, response: createApiKeyResponse,
  summary: 'Create an API key; the secret is shown in this response only.',
} as const satisfies RouteDef;

export const revokeApiKey = {
  face: 'merchant', name: 'api-keys-revoke', method: 'DELETE', path: '/api/v1/public-api/merchants/{merchantId}/api-keys/{id}', handler: 'functions/people/api-keys/revoke-api-key.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', status: 204, response: null, unknownId: merchantApiKeyNotFound,
  summary: 'Revoke an API key.',
} as const satisfies RouteDef;

export const mintJoinLink = {
  face: 'merchant', name: 'merchants-join-link', method: 'POST', path: '/api/v1/public-api/merchants/{merchantId}/join-link', handler: 'functions/people/merchants/mint-join-link.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', status: 201, response: merchantJoinLinkResponse,
  summary: 'Re-mint the owner-claim join link.',
} as const satisfies RouteDef;

export const assignMember = {
  face: 'merchant', name: 'merchants-assign-member', method: 'POST', path: '/api/v1/public-api/merchants/{merchantId}/members', handler: 'functions/people/merchants/assign-member.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', body: assignMerchantMemberRequest, status: 201, response: assignMerchantMemberResponse,
  summary: 'Assign a user of the parent\'s team to a sub-merchant.',
} as const satisfies RouteDef;

export const listMerchantProducts = {
  face: 'merchant', name: 'merchant-products-list', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/products', handler: 'functions/catalog/products/list-merchant-products.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', query: merchantProductListQuery, status: 200, response: publicApiProductListResponse,
  summary: 'List the merchant\'s products, newest first (filters q, status, type, dateRangeStart/End; page ≥ 1, limit 1..100).',
} as const satisfies RouteDef;

export const listMerchantCustomers = {
  face: 'merchant', name: 'merchant-customers-list', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/customers', handler: 'functions/customers/list-merchant-customers.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', query: merchantCustomerListQuery, status: 200, response: publicApiCustomerListResponse,
  summary: 'List the merchant\'s customers, newest first (search; page ≥ 1, limit 1..100): the organization API\'s customer records.',
} as const satisfies RouteDef;

export const getMerchantCustomer = {
  face: 'merchant', name: 'merchant-customers-get', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/customers/{id}', handler: 'functions/customers/get-merchant-customer.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', status: 200, response: publicApiCustomer,
  unknownId: customerNotFound,
  summary: 'Read one of the merchant\'s customers.',
} as const satisfies RouteDef;

export const listMerchantInvoices = {
  face: 'merchant', name: 'merchant-invoices-list', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/invoices', handler: 'functions/invoicing/invoices/list-merchant-invoices.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', query: merchantInvoiceListQuery, status: 200, response: publicApiInvoiceListResponse,
  summary: 'List the merchant\'s customer invoices, newest first (status, search in number, buyer name and customer id; page ≥ 1, limit 1..100).',
} as const satisfies RouteDef;

export const getMerchantInvoice = {
  face: 'merchant', name: 'merchant-invoices-get', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/invoices/{id}', handler: 'functions/invoicing/invoices/get-merchant-invoice.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', status: 200, response: publicApiInvoice,
  unknownId: merchantInvoiceNotFound,
  summary: 'Read one of the merchant\'s customer invoices.',
} as const satisfies RouteDef;

export const downloadMerchantInvoice = {
  face: 'merchant', name: 'merchant-invoices-download', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/invoices/{id}/download',
  handler: 'functions/invoicing/invoices/download-merchant-invoice.ts', auth: 'apiKey', group: 'merchants', table: 'readWrite',
  status: 200, contentType: 'application/pdf', response: invoicePdf, assets: [FONT_ASSET], timeoutSeconds: 15,
  unknownId: merchantInvoiceNotFound,
  summary: 'The invoice as a PDF (content-disposition: attachment; filename="<number>.pdf").',
} as const satisfies RouteDef;

export const createOrder = {
  face: 'merchant', name: 'merchant-orders-create', method: 'POST', path: '/api/v1/public-api/merchants/{merchantId}/orders', handler: 'functions/checkout/orders/create-order.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', body: createOrderRequest, status: 201, response: publicApiOrderResponse,
  summary: 'Create an immutable order (optional Idempotency-Key, at most 255 characters: a replay answers the original order, the body is not compared).',
} as const satisfies RouteDef;

export const getOrder = {
  face: 'merchant', name: 'merchant-orders-get', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/orders/{orderId}', handler: 'functions/checkout/orders/get-order.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', status: 200, response: publicApiOrderResponse,
  unknownId: orderNotFound,
  summary: 'Read one of the merchant\'s orders.',
} as const satisfies RouteDef;

// Balances and payouts
export const getBalanceSummary = {
  face: 'merchant', name: 'merchant-balances-summary', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/balances/summary', handler: 'functions/money/balances/get-balance-summary.ts',
  auth: 'apiKey', group: 'merchants', table: 'read', status: 200, response: publicApiBalanceSummaryResponse,
  summary: 'The merchant\'s balances per currency in major units: available, pending (held), reserved, in transit, paid out and owed.',
} as const satisfies RouteDef;

export const listMerchantPayoutMethods = {
  face: 'merchant', name: 'merchant-payout-methods-list', method: 'GET', path: '/api/v1/public-api/merchants/{merchantId}/payouts/payout-methods',
  handler: 'functions/money/payout-methods/list-merchant-payout-methods.ts', auth: 'apiKey', group: 'merchants', table: 'read',
  status: 200, response: publicApiPayoutMethodsResponse,
  summary: 'The merchant\'s payout methods (bank accounts: last four characters only), newest first.',
} as const satisfies RouteDef;

export const requestPayout = {
  face: 'merchant', name: 'merchant-payouts-request', method: 'POST', path: '/api/v1/public-api/merchants/{merchantId}/payouts', handler: 'functions/money/payouts/request-payout.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', body: publicApiRequestPayoutBody, status: 201, response: publicApiRequestPayoutResponse,
  summary: 'Pay available funds out to a payout method (Idempotency-Key required, at most 255 characters: the same key and body answer the original withdrawal). The merchant\'s own key only.',
} as const satisfies RouteDef;

export const advancePayout = {
  face: 'merchant', name: 'merchant-payouts-advance', method: 'POST', path: '/api/v1/public-api/merchants/{merchantId}/payouts/{withdrawalId}/advance', handler: 'functions/money/payouts/advance-payout.ts',
  auth: 'apiKey', group: 'merchants', table: 'readWrite', body: advancePayoutRequest, status: 200, response: publicApiRequestPayoutResponse,
  stages: ['sandbox'],
  unknownId: payoutNotFound,
  summary: 'Sandbox only: move a payout to in_transit (payout.sent), paid, failed or canceled, as the bank would.',
} as const satisfies RouteDef;

/** The routes of this file by name, for the route table (`index.ts`); a handler imports its own route instead. */
export const merchantRoutes = {
  createMerchant,
  getMerchantCheckoutPlan,
  createMerchantCheckoutSession,
  applyMerchantCheckoutPromoCode,
  confirmMerchantCheckout,
  getMerchantCheckoutReceipt,
  getMerchant,
  updateMerchant,
  listApiKeys,
  createApiKey,
  revokeApiKey,
  mintJoinLink,
  assignMember,
  listMerchantProducts,
  listMerchantCustomers,
  getMerchantCustomer,
  listMerchantInvoices,
  getMerchantInvoice,
  downloadMerchantInvoice,
  createOrder,
  getOrder,
  getBalanceSummary,
  listMerchantPayoutMethods,
  requestPayout,
  advancePayout,
};
