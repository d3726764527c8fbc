/**
 * The payments part of the organization face (`Authorization: ApiKey …`): card tokens and the processor,
 * hosted fields, the production tokenization host, customers, transactions and the account's webhook destinations.
 * Each part keeps its routes under its own heading.
 */
import {
  availablePaymentMethodsResponse, listCardTokensQuery, paymentInstrumentTokenListResponse, paymentInstrumentTokenResponse, stageTokenRequest,
} from '../customers/card-tokens.schemas.ts';
import { tokenizationRequest } from '../customers/tokenization.schemas.ts';
import { clientTokenResponse, createClientTokenRequest, hostedFieldsFrameQuery, textBody } from '../customers/hosted-fields.schemas.ts';
import {
  createCustomerRequest, customerListResponse, customerResponse, getCustomerQuery, listCustomersQuery, updateCustomerRequest,
} from '../customers/customers.schemas.ts';
import {
  createdOrganizationWebhookDestinationResponse, createOrganizationWebhookDestinationRequest, listOrganizationWebhookDestinationsQuery,
  organizationWebhookDestinationListResponse, organizationWebhookDestinationResponse, updateOrganizationWebhookDestinationRequest,
} from '../webhooks/org-webhooks.schemas.ts';
import {
  attachPaymentInstrumentRequest, listPaymentInstrumentsQuery, paymentInstrumentListResponse, paymentInstrumentResponse,
  updatePaymentInstrumentRequest,
} from '../customers/payment-instruments.schemas.ts';
import {
  createTransactionRequest, listTransactionsQuery, transactionListResponse, transactionResponse,
} from '../payments/transactions.schemas.ts';
import { createDisputeRequest, disputeListResponse, disputeResponse, listDisputesQuery } from '../payments/disputes.schemas.ts';
import { createRefundRequest, listRefundsQuery, refundListResponse, refundResponse } from '../payments/refunds.schemas.ts';
import { createCustomerInvoiceRequest, customerInvoiceResponse, issueCustomerInvoiceRequest } from '../invoicing/invoices.schemas.ts';
import {
  accountWebhookDestinationNotFound, cardTokenNotFound, customerInvoiceNotFound, customerNotFound, disputeNotFound, invalidDisputeId, paymentInstrumentNotFound, transactionNotFound,
} from '../domain/unknown-ids.ts';
import { HOSTED_FIELDS_FRAME_SCRIPT, HOSTED_FIELDS_SDK_SCRIPT } from '../platform/http/browser-scripts.ts';
import type { RouteDef } from './types.ts';

/**
 * Production tokenization host: the organization is named by `X-Organization-Id`, never in the path. A request
 * that names one in the path there (the host's own shape `/organizations/…`, or the public API's, with or without
 * `/api`) is refused with 400 `request.organization_id_misplaced` before anything else, instead of a bare 404.
 */
const organizationInHostPath = {
  method: 'POST', handler: 'functions/customers/tokenization/organization-in-path.ts', auth: 'none', group: 'payments', table: 'none',
  stages: ['live'], api: 'tokenization', status: 400, response: null,
  summary: 'Tokenization host: refuses an organization id in the path (it goes in X-Organization-Id) with 400 request.organization_id_misplaced.',
} as const;

// Card tokens and payment methods
export const createStageCardToken = {
  face: 'organization', name: 'payment-instrument-tokens-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/tokens',
  handler: 'functions/customers/card-tokens/create-token.ts', auth: 'orgApiKey', group: 'payments', table: 'readWrite', stages: ['sandbox'],
  fingerprintsCards: true, body: stageTokenRequest, status: 201, response: paymentInstrumentTokenResponse,
  summary: 'Sandbox only: tokenize a card sent in the body (for testing; live tokenizes on the tokenization host or in hosted fields).',
} as const satisfies RouteDef;

export const listCardTokens = {
  face: 'organization', name: 'payment-instrument-tokens-list', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/tokens',
  handler: 'functions/customers/card-tokens/list-tokens.ts', auth: 'orgApiKey', group: 'payments', table: 'read', query: listCardTokensQuery,
  status: 200, response: paymentInstrumentTokenListResponse,
  summary: 'List the organization\'s card tokens, newest first by default (paged, within a creation time range).',
} as const satisfies RouteDef;

export const getCardToken = {
  face: 'organization', name: 'payment-instrument-tokens-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/tokens/{tokenId}',
  handler: 'functions/customers/card-tokens/get-token.ts', auth: 'orgApiKey', group: 'payments', table: 'read',
  status: 200, response: paymentInstrumentTokenResponse,
  unknownId: cardTokenNotFound,
  summary: 'Read one of the organization\'s card tokens (used and expired ones too).',
} as const satisfies RouteDef;

export const getPaymentMethods = {
  face: 'organization', name: 'payment-methods-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/payment-methods',
  handler: 'functions/customers/payment-methods/get-payment-methods.ts', auth: 'orgApiKey', group: 'payments', table: 'read',
  status: 200, response: availablePaymentMethodsResponse,
  summary: 'The payment methods and card brands the organization can take on this deployment.',
} as const satisfies RouteDef;

// Payment instruments
export const attachPaymentInstrument = {
  face: 'organization', name: 'payment-instruments-attach', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/customers/{customerId}/payment-instruments',
  handler: 'functions/customers/payment-instruments/attach-payment-instrument.ts', auth: 'orgApiKey', group: 'payments', table: 'readWrite',
  body: attachPaymentInstrumentRequest, status: 201, response: paymentInstrumentResponse,
  unknownId: customerNotFound,
  summary: 'Attach a card token to a customer: uses the token up and answers the new payment instrument (the customer\'s primary one if it had none).',
} as const satisfies RouteDef;

export const listPaymentInstruments = {
  face: 'organization', name: 'payment-instruments-list', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/customers/{customerId}/payment-instruments',
  handler: 'functions/customers/payment-instruments/list-payment-instruments.ts', auth: 'orgApiKey', group: 'payments', table: 'read',
  query: listPaymentInstrumentsQuery, status: 200, response: paymentInstrumentListResponse,
  unknownId: customerNotFound,
  summary: 'List a customer\'s payment instruments, newest first by default (paged; search by last four digits, brand or billing name).',
} as const satisfies RouteDef;

export const getPaymentInstrument = {
  face: 'organization', name: 'payment-instruments-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/{paymentInstrumentId}',
  handler: 'functions/customers/payment-instruments/get-payment-instrument.ts', auth: 'orgApiKey', group: 'payments', table: 'read',
  status: 200, response: paymentInstrumentResponse,
  unknownId: paymentInstrumentNotFound,
  summary: 'Read one of the organization\'s payment instruments.',
} as const satisfies RouteDef;

export const updatePaymentInstrument = {
  face: 'organization', name: 'payment-instruments-update', method: 'PATCH', path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/{paymentInstrumentId}',
  handler: 'functions/customers/payment-instruments/update-payment-instrument.ts', auth: 'orgApiKey', group: 'payments', table: 'readWrite',
  body: updatePaymentInstrumentRequest, status: 200, response: paymentInstrumentResponse,
  unknownId: paymentInstrumentNotFound,
  summary: 'Change a payment instrument\'s billing address, card expiry, sticky gateway, method or backup flag.',
} as const satisfies RouteDef;

// Production tokenization host
export const tokenizeOnHost = {
  face: 'organization', name: 'tokenization-tokens-create', method: 'POST', path: '/tokens', handler: 'functions/customers/tokenization/create-token.ts',
  auth: 'orgApiKey', group: 'payments', table: 'readWrite', stages: ['live'], api: 'tokenization',
  fingerprintsCards: true, body: tokenizationRequest, status: 201, response: paymentInstrumentTokenResponse,
  summary: 'Tokenize a card on the production tokenization host; the organization is named by the X-Organization-Id header.',
} as const satisfies RouteDef;

export const tokenizationOrganizationPath = { face: 'organization', ...organizationInHostPath, name: 'tokenization-misplaced-organization', path: '/organizations/{proxy+}' } as const satisfies RouteDef;

export const tokenizationPublicApiPath = {
  face: 'organization', ...organizationInHostPath, name: 'tokenization-misplaced-organization-v1', path: '/v1/public-api/organizations/{proxy+}',
} as const satisfies RouteDef;

export const tokenizationApiPath = {
  face: 'organization', ...organizationInHostPath, name: 'tokenization-misplaced-organization-api', path: '/api/v1/public-api/organizations/{proxy+}',
} as const satisfies RouteDef;

// Hosted fields
export const createClientToken = {
  face: 'organization', name: 'hosted-fields-client-tokens-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/client-tokens',
  handler: 'functions/customers/hosted-fields/create-client-token.ts', auth: 'orgApiKey', group: 'payments', table: 'readWrite',
  body: createClientTokenRequest, status: 201, response: clientTokenResponse,
  summary: 'Mint a short-lived client token for hosted fields in the browser, optionally bound to one page origin (shown once).',
} as const satisfies RouteDef;

export const hostedFieldsSdk = {
  face: 'organization', name: 'hosted-fields-sdk', method: 'GET', path: '/api/v1/hosted-fields/sdk.js', handler: 'functions/customers/hosted-fields/sdk.ts',
  auth: 'none', group: 'payments', table: 'none', status: 200, contentType: 'text/javascript', response: textBody,
  summary: 'The hosted-fields SDK (MorHostedFields.mount) that merchant pages load.',
  // Bundled ahead from shared/customers/browser/hosted-fields-sdk.ts (infra/browser-scripts.ts) and read at run time.
  assets: [HOSTED_FIELDS_SDK_SCRIPT],
} as const satisfies RouteDef;

export const hostedFieldsFrame = {
  face: 'organization', name: 'hosted-fields-frame', method: 'GET', path: '/api/v1/hosted-fields/frame', handler: 'functions/customers/hosted-fields/frame.ts',
  auth: 'none', group: 'payments', table: 'none', query: hostedFieldsFrameQuery, status: 200, contentType: 'text/html', response: textBody,
  summary: 'The hosted-fields frame page (card number, expiry, CVC), framed only by the page origin it names.',
} as const satisfies RouteDef;

export const hostedFieldsFrameScript = {
  face: 'organization', name: 'hosted-fields-frame-script', method: 'GET', path: '/api/v1/hosted-fields/frame.js', handler: 'functions/customers/hosted-fields/frame-script.ts',
  auth: 'none', group: 'payments', table: 'none', status: 200, contentType: 'text/javascript', response: textBody,
  summary: 'The hosted-fields frame\'s script.',
  // Bundled ahead from shared/customers/browser/hosted-fields-frame.ts (infra/browser-scripts.ts) and read at run time.
  assets: [HOSTED_FIELDS_FRAME_SCRIPT],
} as const satisfies RouteDef;

export const tokenizeHostedFields = {
  face: 'organization', name: 'hosted-fields-tokens-create', method: 'POST', path: '/api/v1/hosted-fields/tokens', handler: 'functions/customers/hosted-fields/create-token.ts',
  auth: 'clientToken', group: 'payments', table: 'readWrite', fingerprintsCards: true, body: stageTokenRequest,
  status: 201, response: paymentInstrumentTokenResponse,
  summary: 'The hosted-fields frame tokenizes a card with a client token (same origin only: no CORS).',
} as const satisfies RouteDef;

// Customers
export const listCustomers = {
  face: 'organization', name: 'customers-list', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/customers', handler: 'functions/customers/list-customers.ts',
  auth: 'orgApiKey', group: 'customers', table: 'read', query: listCustomersQuery, status: 200, response: customerListResponse,
  summary: 'List the organization\'s customers: every filter and sort of the spec, offset paging, the total count of matches.',
} as const satisfies RouteDef;

export const createCustomer = {
  face: 'organization', name: 'customers-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/customers', handler: 'functions/customers/create-customer.ts',
  auth: 'orgApiKey', group: 'customers', table: 'readWrite', body: createCustomerRequest, status: 201, response: customerResponse,
  summary: 'Create a customer (no customer.created event: that is for customers made by payments).',
} as const satisfies RouteDef;

export const getCustomer = {
  face: 'organization', name: 'customers-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/customers/{customerId}', handler: 'functions/customers/get-customer.ts',
  auth: 'orgApiKey', group: 'customers', table: 'read', query: getCustomerQuery, status: 200, response: customerResponse,
  unknownId: customerNotFound,
  summary: 'Read one of the organization\'s customers (showTestData=false: 404 for test data).',
} as const satisfies RouteDef;

export const updateCustomer = {
  face: 'organization', name: 'customers-update', method: 'PATCH', path: '/api/v1/public-api/organizations/{organizationId}/customers/{customerId}', handler: 'functions/customers/update-customer.ts',
  auth: 'orgApiKey', group: 'customers', table: 'readWrite', body: updateCustomerRequest, status: 200, response: customerResponse,
  unknownId: customerNotFound,
  summary: 'Change the given fields of a customer (both update forms; the deprecated name is split into firstName/lastName).',
} as const satisfies RouteDef;

// Customer invoices
export const createCustomerInvoice = {
  face: 'organization', name: 'customer-invoices-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/customer-invoices', handler: 'functions/invoicing/invoices/create-customer-invoice.ts',
  auth: 'orgApiKey', group: 'customers', table: 'readWrite', body: createCustomerInvoiceRequest, status: 201, response: customerInvoiceResponse,
  summary: 'Create a draft customer invoice (items priced with their tax rates, half-even; the platform is the seller of record).',
} as const satisfies RouteDef;

export const getCustomerInvoice = {
  face: 'organization', name: 'customer-invoices-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/customer-invoices/{customerInvoiceId}',
  handler: 'functions/invoicing/invoices/get-customer-invoice.ts', auth: 'orgApiKey', group: 'customers', table: 'read',
  status: 200, response: customerInvoiceResponse,
  unknownId: customerInvoiceNotFound,
  summary: 'Read one of the organization\'s customer invoices (an open invoice past its due date shows past_due).',
} as const satisfies RouteDef;

export const issueCustomerInvoice = {
  face: 'organization', name: 'customer-invoices-issue', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/customer-invoices/{customerInvoiceId}/issue',
  handler: 'functions/invoicing/invoices/issue-customer-invoice.ts', auth: 'orgApiKey', group: 'customers', table: 'readWrite',
  body: issueCustomerInvoiceRequest, status: 200, response: customerInvoiceResponse,
  unknownId: customerInvoiceNotFound,
  summary: 'Issue a draft: open, numbered with the organization\'s next number, with issuedAt and dueAt.',
} as const satisfies RouteDef;

export const voidCustomerInvoice = {
  face: 'organization', name: 'customer-invoices-void', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/customer-invoices/{customerInvoiceId}/void',
  handler: 'functions/invoicing/invoices/void-customer-invoice.ts', auth: 'orgApiKey', group: 'customers', table: 'readWrite',
  status: 200, response: customerInvoiceResponse,
  unknownId: customerInvoiceNotFound,
  summary: 'Void a draft, open or past_due invoice (a paid one: 422); its checkout order can no longer be paid.',
} as const satisfies RouteDef;

export const markCustomerInvoiceUncollectible = {
  face: 'organization', name: 'customer-invoices-mark-uncollectible', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/customer-invoices/{customerInvoiceId}/mark-uncollectible',
  handler: 'functions/invoicing/invoices/mark-customer-invoice-uncollectible.ts', auth: 'orgApiKey', group: 'customers', table: 'readWrite',
  status: 200, response: customerInvoiceResponse,
  unknownId: customerInvoiceNotFound,
  summary: 'Mark an open or past_due invoice uncollectible (a draft, paid or voided one: 422); its checkout order can no longer be paid. It can still be voided.',
} as const satisfies RouteDef;

// Transactions
export const createTransaction = {
  face: 'organization', name: 'transactions-create', method: 'POST', path: '/api/transactions', handler: 'functions/payments/transactions/create-transaction.ts',
  auth: 'orgApiKey', group: 'payments', table: 'readWrite', body: createTransactionRequest, status: 201, response: transactionResponse,
  summary: 'Charge a card once per idempotencyKey (a repeat answers the first result); the organization is organizationId, or the account\'s only one.',
} as const satisfies RouteDef;

export const listTransactions = {
  face: 'organization', name: 'transactions-list', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/transactions', handler: 'functions/payments/transactions/list-transactions.ts',
  auth: 'orgApiKey', group: 'payments', table: 'read', query: listTransactionsQuery, status: 200, response: transactionListResponse,
  summary: 'List the organization\'s transactions (paged; filtered by status, payment method, search, test data and subscription; seven sorts).',
} as const satisfies RouteDef;

// Refunds
export const createRefund = {
  face: 'organization', name: 'refunds-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/transactions/{transactionId}/refunds', handler: 'functions/payments/refunds/create-refund.ts',
  auth: 'orgApiKey', group: 'payments', table: 'readWrite', body: createRefundRequest, status: 201, response: refundResponse,
  unknownId: transactionNotFound,
  summary: 'Refund all that is left of a completed or partially refunded transaction, or part of it (optional Idempotency-Key; no webhook).',
} as const satisfies RouteDef;

export const listRefunds = {
  face: 'organization', name: 'refunds-list', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/transactions/{transactionId}/refunds', handler: 'functions/payments/refunds/list-refunds.ts',
  auth: 'orgApiKey', group: 'payments', table: 'read', query: listRefundsQuery, status: 200, response: refundListResponse,
  unknownId: transactionNotFound,
  summary: 'List a transaction\'s refunds, newest first by default (paged).',
} as const satisfies RouteDef;

export const simulateProcessorRefund = {
  face: 'organization', name: 'refunds-simulate-processor', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/transactions/{transactionId}/processor-refunds',
  handler: 'functions/payments/refunds/simulate-processor-refund.ts', auth: 'orgApiKey', group: 'payments', table: 'readWrite', stages: ['sandbox'],
  body: createRefundRequest, status: 201, response: refundResponse,
  unknownId: transactionNotFound,
  summary: 'Sandbox only: the sandbox processor refunds the transaction on its own, as a cardholder\'s bank would have it; writes payment.refunded.',
} as const satisfies RouteDef;

// Disputes
export const createDispute = {
  face: 'organization', name: 'disputes-create', method: 'POST', path: '/api/v1/public-api/organizations/{organizationId}/disputes/{disputeId}', handler: 'functions/payments/disputes/create-dispute.ts',
  auth: 'orgApiKey', group: 'payments', table: 'readWrite', body: createDisputeRequest, status: 201, response: disputeResponse,
  unknownId: invalidDisputeId,
  summary: 'Record a dispute of a captured transaction under the organization\'s own id: reserves the amount, writes dispute.created (a repeat with the same body answers the dispute).',
} as const satisfies RouteDef;

export const getDispute = {
  face: 'organization', name: 'disputes-get', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/disputes/{disputeId}', handler: 'functions/payments/disputes/get-dispute.ts',
  auth: 'orgApiKey', group: 'payments', table: 'read', status: 200, response: disputeResponse,
  unknownId: disputeNotFound,
  summary: 'Read one of the organization\'s disputes.',
} as const satisfies RouteDef;

export const listDisputes = {
  face: 'organization', name: 'disputes-list', method: 'GET', path: '/api/v1/public-api/organizations/{organizationId}/disputes', handler: 'functions/payments/disputes/list-disputes.ts',
  auth: 'orgApiKey', group: 'payments', table: 'read', query: listDisputesQuery, status: 200, response: disputeListResponse,
  summary: 'List the organization\'s disputes (paged; sorted by creation or last update; filtered by status and creation time).',
} as const satisfies RouteDef;

// Organization webhook destinations
export const createOrganizationWebhookDestination = {
  face: 'organization', name: 'org-webhook-destinations-create', method: 'POST', path: '/api/v1/webhook-destinations',
  handler: 'functions/webhooks/org-webhooks/create-destination.ts', auth: 'orgApiKey', group: 'organizations', table: 'readWrite', signsWebhooks: true,
  body: createOrganizationWebhookDestinationRequest, status: 201, response: createdOrganizationWebhookDestinationResponse,
  summary: 'Create a webhook destination of the calling account; its signing secret is shown in this response only.',
} as const satisfies RouteDef;

export const listOrganizationWebhookDestinations = {
  face: 'organization', name: 'org-webhook-destinations-list', method: 'GET', path: '/api/v1/webhook-destinations',
  handler: 'functions/webhooks/org-webhooks/list-destinations.ts', auth: 'orgApiKey', group: 'organizations', table: 'read',
  query: listOrganizationWebhookDestinationsQuery, status: 200, response: organizationWebhookDestinationListResponse,
  summary: 'List the calling account\'s webhook destinations by creation time (paged).',
} as const satisfies RouteDef;

export const getOrganizationWebhookDestination = {
  face: 'organization', name: 'org-webhook-destinations-get', method: 'GET', path: '/api/v1/webhook-destinations/{webhookDestinationId}',
  handler: 'functions/webhooks/org-webhooks/get-destination.ts', auth: 'orgApiKey', group: 'organizations', table: 'read',
  status: 200, response: organizationWebhookDestinationResponse,
  unknownId: accountWebhookDestinationNotFound,
  summary: 'Read one of the calling account\'s webhook destinations (never its password or secret).',
} as const satisfies RouteDef;

export const updateOrganizationWebhookDestination = {
  face: 'organization', name: 'org-webhook-destinations-update', method: 'PATCH', path: '/api/v1/webhook-destinations/{webhookDestinationId}',
  handler: 'functions/webhooks/org-webhooks/update-destination.ts', auth: 'orgApiKey', group: 'organizations', table: 'readWrite', signsWebhooks: true,
  body: updateOrganizationWebhookDestinationRequest, status: 200, response: organizationWebhookDestinationResponse,
  unknownId: accountWebhookDestinationNotFound,
  summary: 'Change the url, auth or eventTypes of a webhook destination; it also closes the destination\'s circuit.',
} as const satisfies RouteDef;

export const deleteOrganizationWebhookDestination = {
  face: 'organization', name: 'org-webhook-destinations-delete', method: 'DELETE', path: '/api/v1/webhook-destinations/{webhookDestinationId}',
  handler: 'functions/webhooks/org-webhooks/delete-destination.ts', auth: 'orgApiKey', group: 'organizations', table: 'readWrite',
  status: 200, response: organizationWebhookDestinationResponse,
  unknownId: accountWebhookDestinationNotFound,
  summary: 'Delete a webhook destination of the calling account; answers the deleted destination.',
} as const satisfies RouteDef;

/** The routes of this file by name, for the route table (`index.ts`); a handler imports its own route instead. */
export const paymentRoutes = {
  createStageCardToken,
  listCardTokens,
  getCardToken,
  getPaymentMethods,
  attachPaymentInstrument,
  listPaymentInstruments,
  getPaymentInstrument,
  updatePaymentInstrument,
  tokenizeOnHost,
  tokenizationOrganizationPath,
  tokenizationPublicApiPath,
  tokenizationApiPath,
  createClientToken,
  hostedFieldsSdk,
  hostedFieldsFrame,
  hostedFieldsFrameScript,
  tokenizeHostedFields,
  listCustomers,
  createCustomer,
  getCustomer,
  updateCustomer,
  createCustomerInvoice,
  getCustomerInvoice,
  issueCustomerInvoice,
  voidCustomerInvoice,
  markCustomerInvoiceUncollectible,
  createTransaction,
  listTransactions,
  createRefund,
  listRefunds,
  simulateProcessorRefund,
  createDispute,
  getDispute,
  listDisputes,
  createOrganizationWebhookDestination,
  listOrganizationWebhookDestinations,
  getOrganizationWebhookDestination,
  updateOrganizationWebhookDestination,
  deleteOrganizationWebhookDestination,
};
