import { disputeNotFound, invalidDisputeId, transactionNotFound } from '../domain/unknown-ids.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import { createDisputeRequest, disputeListResponse, disputeResponse, listDisputesQuery } from './disputes.schemas.ts';
import { createRefundRequest, listRefundsQuery, refund, refundListResponse, refundResponse } from './refunds.schemas.ts';
import { createTransactionRequest, listTransactionsQuery, transactionListResponse, transactionResponse } from './transactions.schemas.ts';
import { managers } from '../platform/http/route-def.ts';

// Transactions
export const createTransaction = {
  face: 'organization',
  name: 'transactions-create',
  method: 'POST',
  path: '/api/transactions',
  handler: 'functions/payments/transactions/create-transaction.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'readWrite',
  body: createTransactionRequest,
  status: 201,
  response: transactionResponse,
  summary: "Charge a card once per idempotencyKey (a repeat answers the first result); the organization is organizationId, or the account's only one.",
} as const satisfies RouteDef;

export const listTransactions = {
  face: 'organization',
  name: 'transactions-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/transactions',
  handler: 'functions/payments/transactions/list-transactions.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'read',
  query: listTransactionsQuery,
  status: 200,
  response: transactionListResponse,
  summary: "List the organization's transactions (paged; filtered by status, payment method, search, test data and subscription; seven sorts).",
} as const satisfies RouteDef;

// Refunds
export const createRefund = {
  face: 'organization',
  name: 'refunds-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/transactions/{transactionId}/refunds',
  handler: 'functions/payments/refunds/create-refund.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'readWrite',
  body: createRefundRequest,
  idempotencyKey: 'optional',
  status: 201,
  response: refundResponse,
  unknownId: transactionNotFound,
  summary: 'Refund all that is left of a completed or partially refunded transaction, or part of it (optional Idempotency-Key; no webhook).',
} as const satisfies RouteDef;

export const listRefunds = {
  face: 'organization',
  name: 'refunds-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/transactions/{transactionId}/refunds',
  handler: 'functions/payments/refunds/list-refunds.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'read',
  query: listRefundsQuery,
  status: 200,
  response: refundListResponse,
  unknownId: transactionNotFound,
  summary: "List a transaction's refunds, newest first by default (paged).",
} as const satisfies RouteDef;

export const simulateProcessorRefund = {
  face: 'organization',
  name: 'refunds-simulate-processor',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/transactions/{transactionId}/processor-refunds',
  handler: 'functions/payments/refunds/simulate-processor-refund.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'readWrite',
  stages: ['sandbox'],
  body: createRefundRequest,
  status: 201,
  response: refundResponse,
  unknownId: transactionNotFound,
  summary: "Sandbox only: the sandbox processor refunds the transaction on its own, as a cardholder's bank would have it; writes payment.refunded.",
} as const satisfies RouteDef;

// Disputes
export const createDispute = {
  face: 'organization',
  name: 'disputes-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/disputes/{disputeId}',
  handler: 'functions/payments/disputes/create-dispute.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'readWrite',
  body: createDisputeRequest,
  status: 201,
  response: disputeResponse,
  unknownId: invalidDisputeId,
  summary:
    "Record a dispute of a captured transaction under the organization's own id: reserves the amount, writes dispute.created (a repeat with the same body answers the dispute).",
} as const satisfies RouteDef;

export const getDispute = {
  face: 'organization',
  name: 'disputes-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/disputes/{disputeId}',
  handler: 'functions/payments/disputes/get-dispute.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'read',
  status: 200,
  response: disputeResponse,
  unknownId: disputeNotFound,
  summary: "Read one of the organization's disputes.",
} as const satisfies RouteDef;

export const listDisputes = {
  face: 'organization',
  name: 'disputes-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/disputes',
  handler: 'functions/payments/disputes/list-disputes.ts',
  auth: 'orgApiKey',
  group: 'payments',
  table: 'read',
  query: listDisputesQuery,
  status: 200,
  response: disputeListResponse,
  summary: "List the organization's disputes (paged; sorted by creation or last update; filtered by status and creation time).",
} as const satisfies RouteDef;

// Refunds
export const createDashboardRefund = {
  face: 'dashboard-api',
  name: 'dashboard-refunds-create',
  method: 'POST',
  path: '/api/v1/dashboard/merchants/{merchantId}/transactions/{transactionId}/refunds',
  handler: 'functions/payments/refunds/dashboard-create-refund.ts',
  auth: 'session',
  roles: managers,
  group: 'dashboard',
  table: 'readWrite',
  body: createRefundRequest,
  idempotencyKey: 'optional',
  status: 201,
  response: refund,
  unknownId: transactionNotFound,
  summary: 'Refund all that is left of a completed or partially refunded transaction, or part of it (optional Idempotency-Key; no webhook).',
} as const satisfies RouteDef;
