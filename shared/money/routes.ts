import { payoutMethodNotFound, payoutNotFound } from '../domain/unknown-ids.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import { publicApiBalanceSummaryResponse } from './balances.schemas.ts';
import {
  advancePayoutRequest,
  createPayoutMethodRequest,
  listPayoutMethodsQuery,
  merchantPayoutListQuery,
  payoutMethodListResponse,
  payoutMethodResponse,
  publicApiPayout,
  publicApiPayoutListResponse,
  publicApiPayoutMethodsResponse,
  publicApiRequestPayoutBody,
  publicApiRequestPayoutResponse,
} from './payouts.schemas.ts';

// Balances and payouts
export const getBalanceSummary = {
  face: 'merchant',
  name: 'merchant-balances-summary',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/balances/summary',
  handler: 'functions/money/balances/get-balance-summary.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'read',
  status: 200,
  response: publicApiBalanceSummaryResponse,
  summary: "The merchant's balances per currency in major units: available, pending (held), reserved, in transit, paid out and owed.",
} as const satisfies RouteDef;

export const listMerchantPayoutMethods = {
  face: 'merchant',
  name: 'merchant-payout-methods-list',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/payouts/payout-methods',
  handler: 'functions/money/payout-methods/list-merchant-payout-methods.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'read',
  status: 200,
  response: publicApiPayoutMethodsResponse,
  summary: "The merchant's payout methods (bank accounts: last four characters only), newest first.",
} as const satisfies RouteDef;

export const requestPayout = {
  face: 'merchant',
  name: 'merchant-payouts-request',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/payouts',
  handler: 'functions/money/payouts/request-payout.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  body: publicApiRequestPayoutBody,
  idempotencyKey: 'required',
  status: 201,
  response: publicApiRequestPayoutResponse,
  summary:
    "Pay available funds out to a payout method (Idempotency-Key required, at most 255 characters: the same key and body answer the original withdrawal). The merchant's own key only.",
} as const satisfies RouteDef;

export const listMerchantPayouts = {
  face: 'merchant',
  name: 'merchant-payouts-list',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/payouts',
  handler: 'functions/money/payouts/list-payouts.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'read',
  query: merchantPayoutListQuery,
  status: 200,
  response: publicApiPayoutListResponse,
  summary: "List the merchant's payouts (withdrawals) with their statuses, newest first (page ≥ 1, limit 1..100).",
} as const satisfies RouteDef;

export const getMerchantPayout = {
  face: 'merchant',
  name: 'merchant-payouts-get',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/payouts/{withdrawalId}',
  handler: 'functions/money/payouts/get-payout.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'read',
  status: 200,
  response: publicApiPayout,
  unknownId: payoutNotFound,
  summary: 'One payout (withdrawal) of the merchant, with its status.',
} as const satisfies RouteDef;

export const listDashboardPayouts = {
  face: 'dashboard-api',
  name: 'dashboard-payouts-list',
  method: 'GET',
  path: '/api/v1/dashboard/merchants/{merchantId}/payouts',
  handler: 'functions/money/payouts/list-dashboard-payouts.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'read',
  query: merchantPayoutListQuery,
  status: 200,
  response: publicApiPayoutListResponse,
  summary: "List the merchant's payouts (withdrawals) with their statuses, newest first (any member; page ≥ 1, limit 1..100).",
} as const satisfies RouteDef;

export const getDashboardPayout = {
  face: 'dashboard-api',
  name: 'dashboard-payouts-get',
  method: 'GET',
  path: '/api/v1/dashboard/merchants/{merchantId}/payouts/{withdrawalId}',
  handler: 'functions/money/payouts/get-dashboard-payout.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'read',
  status: 200,
  response: publicApiPayout,
  unknownId: payoutNotFound,
  summary: 'One payout (withdrawal) of the merchant, with its status (any member).',
} as const satisfies RouteDef;

export const advancePayout = {
  face: 'merchant',
  name: 'merchant-payouts-advance',
  method: 'POST',
  path: '/api/v1/public-api/merchants/{merchantId}/payouts/{withdrawalId}/advance',
  handler: 'functions/money/payouts/advance-payout.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  body: advancePayoutRequest,
  status: 200,
  response: publicApiRequestPayoutResponse,
  stages: ['sandbox'],
  unknownId: payoutNotFound,
  summary: 'Sandbox only: move a payout to in_transit (payout.sent), paid, failed or canceled, as the bank would.',
} as const satisfies RouteDef;

/** The routes of this file by name, for the route table (`index.ts`); a handler imports its own route instead. */

// Payout methods
export const listPayoutMethods = {
  face: 'organization',
  name: 'payout-methods-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/payout-methods',
  handler: 'functions/money/payout-methods/list-payout-methods.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'read',
  query: listPayoutMethodsQuery,
  status: 200,
  response: payoutMethodListResponse,
  summary: "The organization's payout methods (bank accounts: last four characters only), newest first by default.",
} as const satisfies RouteDef;

export const createPayoutMethod = {
  face: 'organization',
  name: 'payout-methods-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/payout-methods',
  handler: 'functions/money/payout-methods/create-payout-method.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  body: createPayoutMethodRequest,
  status: 201,
  response: payoutMethodResponse,
  summary: 'Add a bank account to pay out to (IBAN, or a local number with a routing number); only its last four characters are kept.',
} as const satisfies RouteDef;

export const deletePayoutMethod = {
  face: 'organization',
  name: 'payout-methods-delete',
  method: 'DELETE',
  path: '/api/v1/public-api/organizations/{organizationId}/payout-methods/{payoutMethodId}',
  handler: 'functions/money/payout-methods/delete-payout-method.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  status: 204,
  response: null,
  unknownId: payoutMethodNotFound,
  summary: 'Remove a payout method; payouts already requested to it go on.',
} as const satisfies RouteDef;
