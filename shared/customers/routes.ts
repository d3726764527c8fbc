import { cardTokenNotFound, customerNotFound, paymentInstrumentNotFound } from '../domain/unknown-ids.ts';
import { HOSTED_FIELDS_SDK_PATH } from './hosted-fields.origins.ts';
import { HOSTED_FIELDS_FRAME_SCRIPT, HOSTED_FIELDS_SDK_SCRIPT } from '../platform/http/browser-scripts.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import {
  availablePaymentMethodsResponse,
  listCardTokensQuery,
  paymentInstrumentTokenListResponse,
  paymentInstrumentTokenResponse,
  stageTokenRequest,
} from './card-tokens.schemas.ts';
import {
  createCustomerRequest,
  customerListResponse,
  customerResponse,
  getCustomerQuery,
  listCustomersQuery,
  merchantCustomerListQuery,
  publicApiCustomer,
  publicApiCustomerListResponse,
  updateCustomerRequest,
} from './customers.schemas.ts';
import { clientTokenResponse, createClientTokenRequest, hostedFieldsFrameQuery, textBody } from './hosted-fields.schemas.ts';
import {
  attachPaymentInstrumentRequest,
  listPaymentInstrumentsQuery,
  paymentInstrumentListResponse,
  paymentInstrumentResponse,
  updatePaymentInstrumentRequest,
} from './payment-instruments.schemas.ts';
import { tokenizationRequest } from './tokenization.schemas.ts';

export const listMerchantCustomers = {
  face: 'merchant',
  name: 'merchant-customers-list',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/customers',
  handler: 'functions/customers/list-merchant-customers.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  query: merchantCustomerListQuery,
  status: 200,
  response: publicApiCustomerListResponse,
  summary: "List the merchant's customers, newest first (search; page ≥ 1, limit 1..100): the organization API's customer records.",
} as const satisfies RouteDef;

export const getMerchantCustomer = {
  face: 'merchant',
  name: 'merchant-customers-get',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/customers/{id}',
  handler: 'functions/customers/get-merchant-customer.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  status: 200,
  response: publicApiCustomer,
  unknownId: customerNotFound,
  summary: "Read one of the merchant's customers.",
} as const satisfies RouteDef;

/**
 * Production tokenization host: the organization is named by `X-Organization-Id`, never in the path. A request
 * that names one in the path there (the host's own shape `/organizations/…`, or the public API's, with or without
 * `/api`) is refused with 400 `request.organization_id_misplaced` before anything else, instead of a bare 404. Its
 * three routes write their fields out (an object spread would keep them in every function of this module).
 */
const misplacedOrganizationHandler = 'functions/customers/tokenization/organization-in-path.ts';
const misplacedOrganizationSummary =
  'Tokenization host: refuses an organization id in the path (it goes in X-Organization-Id) with 400 request.organization_id_misplaced.';

// Card tokens and payment methods
export const createStageCardToken = {
  face: 'organization',
  name: 'payment-instrument-tokens-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/tokens',
  handler: 'functions/customers/card-tokens/create-token.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'readWrite',
  stages: ['sandbox'],
  fingerprintsCards: true,
  body: stageTokenRequest,
  status: 201,
  response: paymentInstrumentTokenResponse,
  summary: 'Sandbox only: tokenize a card sent in the body (for testing; live tokenizes on the tokenization host or in hosted fields).',
} as const satisfies RouteDef;

export const listCardTokens = {
  face: 'organization',
  name: 'payment-instrument-tokens-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/tokens',
  handler: 'functions/customers/card-tokens/list-tokens.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'read',
  query: listCardTokensQuery,
  status: 200,
  response: paymentInstrumentTokenListResponse,
  summary: "List the organization's card tokens, newest first by default (paged, within a creation time range).",
} as const satisfies RouteDef;

export const getCardToken = {
  face: 'organization',
  name: 'payment-instrument-tokens-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/tokens/{tokenId}',
  handler: 'functions/customers/card-tokens/get-token.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'read',
  status: 200,
  response: paymentInstrumentTokenResponse,
  unknownId: cardTokenNotFound,
  summary: "Read one of the organization's card tokens (used and expired ones too).",
} as const satisfies RouteDef;

export const getPaymentMethods = {
  face: 'organization',
  name: 'payment-methods-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/payment-methods',
  handler: 'functions/customers/payment-methods/get-payment-methods.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'read',
  status: 200,
  response: availablePaymentMethodsResponse,
  summary: 'The payment methods and card brands the organization can take on this deployment.',
} as const satisfies RouteDef;

// Payment instruments
export const attachPaymentInstrument = {
  face: 'organization',
  name: 'payment-instruments-attach',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/customers/{customerId}/payment-instruments',
  handler: 'functions/customers/payment-instruments/attach-payment-instrument.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'readWrite',
  body: attachPaymentInstrumentRequest,
  status: 201,
  response: paymentInstrumentResponse,
  unknownId: customerNotFound,
  summary: "Attach a card token to a customer: uses the token up and answers the new payment instrument (the customer's primary one if it had none).",
} as const satisfies RouteDef;

export const listPaymentInstruments = {
  face: 'organization',
  name: 'payment-instruments-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/customers/{customerId}/payment-instruments',
  handler: 'functions/customers/payment-instruments/list-payment-instruments.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'read',
  query: listPaymentInstrumentsQuery,
  status: 200,
  response: paymentInstrumentListResponse,
  unknownId: customerNotFound,
  summary: "List a customer's payment instruments, newest first by default (paged; search by last four digits, brand or billing name).",
} as const satisfies RouteDef;

export const getPaymentInstrument = {
  face: 'organization',
  name: 'payment-instruments-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/{paymentInstrumentId}',
  handler: 'functions/customers/payment-instruments/get-payment-instrument.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'read',
  status: 200,
  response: paymentInstrumentResponse,
  unknownId: paymentInstrumentNotFound,
  summary: "Read one of the organization's payment instruments.",
} as const satisfies RouteDef;

export const updatePaymentInstrument = {
  face: 'organization',
  name: 'payment-instruments-update',
  method: 'PATCH',
  path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/{paymentInstrumentId}',
  handler: 'functions/customers/payment-instruments/update-payment-instrument.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'readWrite',
  body: updatePaymentInstrumentRequest,
  status: 200,
  response: paymentInstrumentResponse,
  unknownId: paymentInstrumentNotFound,
  summary: "Change a payment instrument's billing address, card expiry, sticky gateway, method or backup flag.",
} as const satisfies RouteDef;

// Production tokenization host
export const tokenizeOnHost = {
  face: 'organization',
  name: 'tokenization-tokens-create',
  method: 'POST',
  path: '/tokens',
  handler: 'functions/customers/tokenization/create-token.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'readWrite',
  stages: ['live'],
  api: 'tokenization',
  fingerprintsCards: true,
  body: tokenizationRequest,
  status: 201,
  response: paymentInstrumentTokenResponse,
  summary: 'Tokenize a card on the production tokenization host; the organization is named by the X-Organization-Id header.',
} as const satisfies RouteDef;

export const tokenizationOrganizationPath = {
  face: 'organization',
  name: 'tokenization-misplaced-organization',
  method: 'POST',
  path: '/organizations/{proxy+}',
  handler: misplacedOrganizationHandler,
  auth: 'none',
  group: 'payments',
  table: 'none',
  stages: ['live'],
  api: 'tokenization',
  status: 400,
  response: null,
  summary: misplacedOrganizationSummary,
} as const satisfies RouteDef;

export const tokenizationPublicApiPath = {
  face: 'organization',
  name: 'tokenization-misplaced-organization-v1',
  method: 'POST',
  path: '/v1/public-api/organizations/{proxy+}',
  handler: misplacedOrganizationHandler,
  auth: 'none',
  group: 'payments',
  table: 'none',
  stages: ['live'],
  api: 'tokenization',
  status: 400,
  response: null,
  summary: misplacedOrganizationSummary,
} as const satisfies RouteDef;

export const tokenizationApiPath = {
  face: 'organization',
  name: 'tokenization-misplaced-organization-api',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{proxy+}',
  handler: misplacedOrganizationHandler,
  auth: 'none',
  group: 'payments',
  table: 'none',
  stages: ['live'],
  api: 'tokenization',
  status: 400,
  response: null,
  summary: misplacedOrganizationSummary,
} as const satisfies RouteDef;

// Hosted fields
export const createClientToken = {
  face: 'organization',
  name: 'hosted-fields-client-tokens-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/payment-instruments/client-tokens',
  handler: 'functions/customers/hosted-fields/create-client-token.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'readWrite',
  body: createClientTokenRequest,
  status: 201,
  response: clientTokenResponse,
  summary: 'Mint a short-lived client token for hosted fields in the browser, optionally bound to one page origin (shown once).',
} as const satisfies RouteDef;

export const hostedFieldsSdk = {
  face: 'organization',
  name: 'hosted-fields-sdk',
  method: 'GET',
  path: HOSTED_FIELDS_SDK_PATH,
  handler: 'functions/customers/hosted-fields/sdk.ts',
  auth: 'none',
  group: 'payments',
  table: 'none',
  status: 200,
  contentType: 'text/javascript',
  response: textBody,
  summary: 'The hosted-fields SDK (MorHostedFields.mount) that merchant pages load.',
  // Bundled ahead from shared/customers/browser/hosted-fields-sdk.ts (infra/browser-scripts.ts) and read at run time.
  assets: [HOSTED_FIELDS_SDK_SCRIPT],
} as const satisfies RouteDef;

export const hostedFieldsFrame = {
  face: 'organization',
  name: 'hosted-fields-frame',
  method: 'GET',
  path: '/api/v1/hosted-fields/frame',
  handler: 'functions/customers/hosted-fields/frame.ts',
  auth: 'none',
  group: 'payments',
  table: 'none',
  query: hostedFieldsFrameQuery,
  status: 200,
  contentType: 'text/html',
  response: textBody,
  summary: 'The hosted-fields frame page (card number, expiry, CVC), framed only by the page origin it names.',
} as const satisfies RouteDef;

export const hostedFieldsFrameScript = {
  face: 'organization',
  name: 'hosted-fields-frame-script',
  method: 'GET',
  path: '/api/v1/hosted-fields/frame.js',
  handler: 'functions/customers/hosted-fields/frame-script.ts',
  auth: 'none',
  group: 'payments',
  table: 'none',
  status: 200,
  contentType: 'text/javascript',
  response: textBody,
  summary: "The hosted-fields frame's script.",
  // Bundled ahead from shared/customers/browser/hosted-fields-frame.ts (infra/browser-scripts.ts) and read at run time.
  assets: [HOSTED_FIELDS_FRAME_SCRIPT],
} as const satisfies RouteDef;

export const tokenizeHostedFields = {
  face: 'organization',
  name: 'hosted-fields-tokens-create',
  method: 'POST',
  path: '/api/v1/hosted-fields/tokens',
  handler: 'functions/customers/hosted-fields/create-token.ts',
  auth: 'clientToken',
  group: 'payments',
  table: 'readWrite',
  fingerprintsCards: true,
  body: stageTokenRequest,
  status: 201,
  response: paymentInstrumentTokenResponse,
  summary: 'The hosted-fields frame tokenizes a card with a client token (same origin only: no CORS).',
} as const satisfies RouteDef;

// Customers
export const listCustomers = {
  face: 'organization',
  name: 'customers-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/customers',
  handler: 'functions/customers/list-customers.ts',
  auth: 'orgApiKey',
  group: 'customers',
  table: 'read',
  query: listCustomersQuery,
  status: 200,
  response: customerListResponse,
  summary: "List the organization's customers: every filter and sort of the spec, offset paging, the total count of matches.",
} as const satisfies RouteDef;

export const createCustomer = {
  face: 'organization',
  name: 'customers-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/customers',
  handler: 'functions/customers/create-customer.ts',
  auth: 'orgApiKey',
  group: 'customers',
  table: 'readWrite',
  body: createCustomerRequest,
  status: 201,
  response: customerResponse,
  summary: 'Create a customer (no customer.created event: that is for customers made by payments).',
} as const satisfies RouteDef;

export const getCustomer = {
  face: 'organization',
  name: 'customers-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/customers/{customerId}',
  handler: 'functions/customers/get-customer.ts',
  auth: 'orgApiKey',
  group: 'customers',
  table: 'read',
  query: getCustomerQuery,
  status: 200,
  response: customerResponse,
  unknownId: customerNotFound,
  summary: "Read one of the organization's customers (showTestData=false: 404 for test data).",
} as const satisfies RouteDef;

export const updateCustomer = {
  face: 'organization',
  name: 'customers-update',
  method: 'PATCH',
  path: '/api/v1/public-api/organizations/{organizationId}/customers/{customerId}',
  handler: 'functions/customers/update-customer.ts',
  auth: 'orgApiKey',
  group: 'customers',
  table: 'readWrite',
  body: updateCustomerRequest,
  status: 200,
  response: customerResponse,
  unknownId: customerNotFound,
  summary: 'Change the given fields of a customer (both update forms; the deprecated name is split into firstName/lastName).',
} as const satisfies RouteDef;
