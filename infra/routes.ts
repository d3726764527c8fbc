/**
 * The route table: the single source of truth for every HTTP endpoint.
 * The CDK stacks, the local gateway, the `events/` samples and the handlers' middleware all read it.
 */
import type { GenericSchema } from 'valibot';
import { assignMerchantMemberRequest, createApiKeyRequest, createMerchantRequest, updateMerchantWebsiteUrlRequest } from '../shared/schemas/merchant-api.ts';
import { signInRequest, signUpRequest } from '../shared/schemas/dashboard.ts';
import { createWebhookDestinationRequest, listDeliveriesQuery } from '../shared/schemas/webhooks.ts';
import type { Role } from '../shared/domain/merchants.ts';

/** How a route authenticates: not at all, with a merchant API key, or with a dashboard session. */
export type AuthKind = 'none' | 'apiKey' | 'session';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
/** The API stack a route's function lives in (stacks are split to stay far below CloudFormation's 500 resources). */
export type RouteGroup = 'system' | 'merchants' | 'dashboard';
/** What a route's function may do to the table (least privilege). */
export type TableAccess = 'none' | 'read' | 'readWrite';

export interface RouteDef {
  /** Function name: also the name of its sample event in `events/`. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Full path as API Gateway routes it, with `{param}` placeholders. */
  readonly path: string;
  /** Lambda entry file, relative to the repository root. */
  readonly handler: string;
  readonly auth: AuthKind;
  readonly group: RouteGroup;
  readonly table: TableAccess;
  /** valibot schema of the JSON body; a route without one takes no body. */
  readonly body?: GenericSchema;
  /** valibot schema of the query string parameters. */
  readonly query?: GenericSchema;
  /** The function signs webhooks, so it may read the deployment's webhook signing key. */
  readonly signsWebhooks?: boolean;
  /** Session routes on a merchant: the roles allowed (any member when absent). */
  readonly roles?: readonly Role[];
  /** Function timeout (default 10 s). */
  readonly timeoutSeconds?: number;
  readonly summary: string;
}

/** Route timeout unless a definition sets its own: well inside API Gateway's 30 s integration limit. */
export const defaultRouteTimeoutSeconds = 10;

const merchantsBase = '/api/v1/public-api/merchants';
const dashboardBase = '/api/v1/dashboard';
const destinationsBase = `${dashboardBase}/merchants/{merchantId}/webhook-destinations`;
const managers = ['owner', 'admin'] as const;

export const routes = {
  health: {
    name: 'health', method: 'GET', path: '/api/health', handler: 'functions/system/health.ts',
    auth: 'none', group: 'system', table: 'none', summary: 'Liveness check.',
  },
  openapi: {
    name: 'openapi', method: 'GET', path: '/api/v1/openapi.json', handler: 'functions/system/openapi.ts',
    auth: 'none', group: 'system', table: 'none', summary: 'This API\'s OpenAPI 3.1 document, generated from the route table.',
  },

  // Merchant Public API
  createMerchant: {
    name: 'merchants-create', method: 'POST', path: merchantsBase, handler: 'functions/merchants/create-merchant.ts',
    auth: 'apiKey', group: 'merchants', table: 'readWrite', body: createMerchantRequest,
    summary: 'Create a sub-merchant of the calling key\'s merchant.',
  },
  getMerchant: {
    name: 'merchants-get', method: 'GET', path: `${merchantsBase}/{merchantId}`, handler: 'functions/merchants/get-merchant.ts',
    auth: 'apiKey', group: 'merchants', table: 'readWrite', summary: 'Read a merchant with owner and activation status.',
  },
  updateMerchant: {
    name: 'merchants-update', method: 'PATCH', path: `${merchantsBase}/{merchantId}`, handler: 'functions/merchants/update-merchant.ts',
    auth: 'apiKey', group: 'merchants', table: 'readWrite', body: updateMerchantWebsiteUrlRequest,
    summary: 'Update the merchant website URL.',
  },
  listApiKeys: {
    name: 'api-keys-list', method: 'GET', path: `${merchantsBase}/{merchantId}/api-keys`, handler: 'functions/api-keys/list-api-keys.ts',
    auth: 'apiKey', group: 'merchants', table: 'readWrite', summary: 'List API key summaries (never secrets).',
  },
  createApiKey: {
    name: 'api-keys-create', method: 'POST', path: `${merchantsBase}/{merchantId}/api-keys`, handler: 'functions/api-keys/create-api-key.ts',
    auth: 'apiKey', group: 'merchants', table: 'readWrite', body: createApiKeyRequest,
    summary: 'Create an API key; the secret is shown in this response only.',
  },
  revokeApiKey: {
    name: 'api-keys-revoke', method: 'DELETE', path: `${merchantsBase}/{merchantId}/api-keys/{id}`, handler: 'functions/api-keys/revoke-api-key.ts',
    auth: 'apiKey', group: 'merchants', table: 'readWrite', summary: 'Revoke an API key.',
  },
  mintJoinLink: {
    name: 'merchants-join-link', method: 'POST', path: `${merchantsBase}/{merchantId}/join-link`, handler: 'functions/merchants/mint-join-link.ts',
    auth: 'apiKey', group: 'merchants', table: 'readWrite', summary: 'Re-mint the owner-claim join link.',
  },
  assignMember: {
    name: 'merchants-assign-member', method: 'POST', path: `${merchantsBase}/{merchantId}/members`, handler: 'functions/merchants/assign-member.ts',
    auth: 'apiKey', group: 'merchants', table: 'readWrite', body: assignMerchantMemberRequest,
    summary: 'Assign a user of the parent\'s team to a sub-merchant.',
  },

  // Dashboard back end (people)
  signUp: {
    name: 'users-sign-up', method: 'POST', path: `${dashboardBase}/users`, handler: 'functions/people/sign-up.ts',
    auth: 'none', group: 'dashboard', table: 'readWrite', body: signUpRequest, summary: 'Create a user.',
  },
  signIn: {
    name: 'sessions-create', method: 'POST', path: `${dashboardBase}/sessions`, handler: 'functions/people/sign-in.ts',
    auth: 'none', group: 'dashboard', table: 'readWrite', body: signInRequest, summary: 'Sign in: start a session.',
  },
  signOut: {
    name: 'sessions-delete', method: 'DELETE', path: `${dashboardBase}/sessions/current`, handler: 'functions/people/sign-out.ts',
    auth: 'session', group: 'dashboard', table: 'readWrite', summary: 'Sign out: end the current session.',
  },
  me: {
    name: 'me-get', method: 'GET', path: `${dashboardBase}/me`, handler: 'functions/people/get-me.ts',
    auth: 'session', group: 'dashboard', table: 'read', summary: 'The signed-in user and their merchants.',
  },
  claimJoinLink: {
    name: 'join-links-claim', method: 'POST', path: `${dashboardBase}/join-links/{token}/claim`, handler: 'functions/people/claim-join-link.ts',
    auth: 'session', group: 'dashboard', table: 'readWrite', summary: 'Claim a merchant\'s ownership through its latest join link.',
  },

  // Webhook destinations (dashboard)
  createWebhookDestination: {
    name: 'webhook-destinations-create', method: 'POST', path: destinationsBase, handler: 'functions/webhooks/create-destination.ts',
    auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', body: createWebhookDestinationRequest, signsWebhooks: true,
    summary: 'Create a webhook destination; its signing secret is shown in this response only.',
  },
  listWebhookDestinations: {
    name: 'webhook-destinations-list', method: 'GET', path: destinationsBase, handler: 'functions/webhooks/list-destinations.ts',
    auth: 'session', group: 'dashboard', table: 'read', summary: 'List the merchant\'s webhook destinations.',
  },
  getWebhookDestination: {
    name: 'webhook-destinations-get', method: 'GET', path: `${destinationsBase}/{id}`, handler: 'functions/webhooks/get-destination.ts',
    auth: 'session', group: 'dashboard', table: 'read', summary: 'Read a webhook destination.',
  },
  deleteWebhookDestination: {
    name: 'webhook-destinations-delete', method: 'DELETE', path: `${destinationsBase}/{id}`, handler: 'functions/webhooks/delete-destination.ts',
    auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', summary: 'Delete a webhook destination.',
  },
  testWebhookDestination: {
    name: 'webhook-destinations-test', method: 'POST', path: `${destinationsBase}/{id}/test`, handler: 'functions/webhooks/test-destination.ts',
    auth: 'session', roles: managers, group: 'dashboard', table: 'read', timeoutSeconds: 20, signsWebhooks: true,
    summary: 'Send a signed test ping and report the receiver\'s answer (no history, no effect on the circuit).',
  },
  resetWebhookCircuit: {
    name: 'webhook-destinations-reset-circuit', method: 'POST', path: `${destinationsBase}/{id}/reset-circuit`, handler: 'functions/webhooks/reset-circuit.ts',
    auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', summary: 'Close an open circuit; events skipped meanwhile are not replayed.',
  },
  listWebhookDeliveries: {
    name: 'webhook-deliveries-list', method: 'GET', path: `${destinationsBase}/{id}/deliveries`, handler: 'functions/webhooks/list-deliveries.ts',
    auth: 'session', group: 'dashboard', table: 'read', query: listDeliveriesQuery, summary: 'Delivery history, newest first.',
  },
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof routes;
export const routeList: readonly RouteDef[] = Object.values(routes);
