/** The dashboard back end (session auth): people, join links, team members and webhook destinations. */
import {
  addMemberRequest, joinLinkClaim, me as meResponse, member, members, session, signInRequest, signUpRequest, updateMemberRequest, user,
} from '../people/dashboard.schemas.ts';
import { textBody } from '../customers/hosted-fields.schemas.ts';
import {
  createdWebhookDestination, createWebhookDestinationRequest, listDeliveriesQuery, webhookDeliveryPage, webhookDestination,
  webhookDestinations, webhookPingResult,
} from '../webhooks/webhooks.schemas.ts';
import { createRefundRequest, refund } from '../payments/refunds.schemas.ts';
import {
  checkoutOrderNotFound, checkoutPlanNotFound, joinLinkInvalid, memberNotFound, transactionNotFound, webhookDestinationNotFound,
} from '../domain/unknown-ids.ts';
import { CHECKOUT_PAGE_SCRIPT } from '../platform/http/browser-scripts.ts';
import type { RouteDef } from './types.ts';

const managers = ['owner', 'admin'] as const;

export const signUp = {
  face: 'dashboard', name: 'users-sign-up', method: 'POST', path: '/api/v1/dashboard/users', handler: 'functions/people/sign-up.ts',
  auth: 'none', group: 'dashboard', table: 'readWrite', body: signUpRequest, status: 201, response: user, summary: 'Create a user.',
} as const satisfies RouteDef;

export const signIn = {
  face: 'dashboard', name: 'sessions-create', method: 'POST', path: '/api/v1/dashboard/sessions', handler: 'functions/people/sign-in.ts',
  auth: 'none', group: 'dashboard', table: 'readWrite', body: signInRequest, status: 201, response: session, summary: 'Sign in: start a session.',
} as const satisfies RouteDef;

export const signOut = {
  face: 'dashboard', name: 'sessions-delete', method: 'DELETE', path: '/api/v1/dashboard/sessions/current', handler: 'functions/people/sign-out.ts',
  auth: 'session', group: 'dashboard', table: 'readWrite', status: 204, response: null, summary: 'Sign out: end the current session.',
} as const satisfies RouteDef;

export const me = {
  face: 'dashboard', name: 'me-get', method: 'GET', path: '/api/v1/dashboard/me', handler: 'functions/people/get-me.ts',
  auth: 'session', group: 'dashboard', table: 'read', status: 200, response: meResponse, summary: 'The signed-in user and their merchants.',
} as const satisfies RouteDef;

export const claimJoinLink = {
  face: 'dashboard', name: 'join-links-claim', method: 'POST', path: '/api/v1/dashboard/join-links/{token}/claim', handler: 'functions/people/claim-join-link.ts',
  auth: 'session', group: 'dashboard', table: 'readWrite', status: 200, response: joinLinkClaim,
  unknownId: joinLinkInvalid,
  summary: 'Claim a merchant\'s ownership through its latest join link.',
} as const satisfies RouteDef;

// Webhook destinations
export const createWebhookDestination = {
  face: 'dashboard', name: 'webhook-destinations-create', method: 'POST', path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations', handler: 'functions/webhooks/create-destination.ts',
  auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', body: createWebhookDestinationRequest, signsWebhooks: true,
  status: 201, response: createdWebhookDestination,
  summary: 'Create a webhook destination; its signing secret is shown in this response only.',
} as const satisfies RouteDef;

export const listWebhookDestinations = {
  face: 'dashboard', name: 'webhook-destinations-list', method: 'GET', path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations', handler: 'functions/webhooks/list-destinations.ts',
  auth: 'session', group: 'dashboard', table: 'read', status: 200, response: webhookDestinations,
  summary: 'List the merchant\'s webhook destinations.',
} as const satisfies RouteDef;

export const getWebhookDestination = {
  face: 'dashboard', name: 'webhook-destinations-get', method: 'GET', path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations/{id}', handler: 'functions/webhooks/get-destination.ts',
  auth: 'session', group: 'dashboard', table: 'read', status: 200, response: webhookDestination, unknownId: webhookDestinationNotFound,
  summary: 'Read a webhook destination.',
} as const satisfies RouteDef;

export const deleteWebhookDestination = {
  face: 'dashboard', name: 'webhook-destinations-delete', method: 'DELETE', path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations/{id}', handler: 'functions/webhooks/delete-destination.ts',
  auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', status: 204, response: null, unknownId: webhookDestinationNotFound,
  summary: 'Delete a webhook destination.',
} as const satisfies RouteDef;

export const testWebhookDestination = {
  face: 'dashboard', name: 'webhook-destinations-test', method: 'POST', path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations/{id}/test', handler: 'functions/webhooks/test-destination.ts',
  auth: 'session', roles: managers, group: 'dashboard', table: 'read', timeoutSeconds: 20, signsWebhooks: true,
  status: 200, response: webhookPingResult,
  unknownId: webhookDestinationNotFound,
  summary: 'Send a signed test ping and report the receiver\'s answer (no history, no effect on the circuit).',
} as const satisfies RouteDef;

export const resetWebhookCircuit = {
  face: 'dashboard', name: 'webhook-destinations-reset-circuit', method: 'POST', path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations/{id}/reset-circuit', handler: 'functions/webhooks/reset-circuit.ts',
  auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', status: 200, response: webhookDestination,
  unknownId: webhookDestinationNotFound,
  summary: 'Close an open circuit; events skipped meanwhile are not replayed.',
} as const satisfies RouteDef;

export const listWebhookDeliveries = {
  face: 'dashboard', name: 'webhook-deliveries-list', method: 'GET', path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations/{id}/deliveries', handler: 'functions/webhooks/list-deliveries.ts',
  auth: 'session', group: 'dashboard', table: 'read', query: listDeliveriesQuery, status: 200, response: webhookDeliveryPage,
  unknownId: webhookDestinationNotFound,
  summary: 'Delivery history, newest first.',
} as const satisfies RouteDef;

// Team members (who may change whom: shared/people/members.service.ts)
export const listMembers = {
  face: 'dashboard', name: 'members-list', method: 'GET', path: '/api/v1/dashboard/merchants/{merchantId}/members', handler: 'functions/people/members/list-members.ts',
  auth: 'session', group: 'dashboard', table: 'read', status: 200, response: members, summary: 'List the merchant\'s team.',
} as const satisfies RouteDef;

export const addMember = {
  face: 'dashboard', name: 'members-add', method: 'POST', path: '/api/v1/dashboard/merchants/{merchantId}/members', handler: 'functions/people/members/add-member.ts',
  auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', body: addMemberRequest, status: 201, response: member,
  summary: 'Add an existing user, by sign-in e-mail, as admin or member.',
} as const satisfies RouteDef;

export const updateMember = {
  face: 'dashboard', name: 'members-update', method: 'PATCH', path: '/api/v1/dashboard/merchants/{merchantId}/members/{userId}', handler: 'functions/people/members/update-member.ts',
  auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', body: updateMemberRequest, status: 200, response: member,
  unknownId: memberNotFound,
  summary: 'Change a member\'s role (owners: any role; admins: admin or member, never an owner). The last owner stays.',
} as const satisfies RouteDef;

export const removeMember = {
  face: 'dashboard', name: 'members-remove', method: 'DELETE', path: '/api/v1/dashboard/merchants/{merchantId}/members/{userId}', handler: 'functions/people/members/remove-member.ts',
  auth: 'session', group: 'dashboard', table: 'readWrite', status: 204, response: null,
  unknownId: memberNotFound,
  summary: 'Remove a member, or leave the team yourself. The last owner stays.',
} as const satisfies RouteDef;

// Refunds
export const createDashboardRefund = {
  face: 'dashboard', name: 'dashboard-refunds-create', method: 'POST', path: '/api/v1/dashboard/merchants/{merchantId}/transactions/{transactionId}/refunds',
  handler: 'functions/payments/refunds/dashboard-create-refund.ts', auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite',
  body: createRefundRequest, status: 201, response: refund,
  unknownId: transactionNotFound,
  summary: 'Refund all that is left of a completed or partially refunded transaction, or part of it (optional Idempotency-Key; no webhook).',
} as const satisfies RouteDef;

// Hosted checkout pages (static shells on the main origin; their script calls the buyer checkout API)
export const checkoutPlanPage = {
  face: 'dashboard', name: 'checkout-page-plan', method: 'GET', path: '/checkout/plans/{planId}', handler: 'functions/checkout/checkout-pages/plan-page.ts',
  auth: 'none', group: 'dashboard', table: 'none', status: 200, contentType: 'text/html', response: textBody,
  unknownId: checkoutPlanNotFound,
  summary: 'The hosted checkout page of a plan: price, tax, promo code, policies and the hosted card fields.',
} as const satisfies RouteDef;

export const checkoutOrderPage = {
  face: 'dashboard', name: 'checkout-page-order', method: 'GET', path: '/checkout/orders/{orderId}', handler: 'functions/checkout/checkout-pages/order-page.ts',
  auth: 'none', group: 'dashboard', table: 'none', status: 200, contentType: 'text/html', response: textBody,
  unknownId: checkoutOrderNotFound,
  summary: 'The hosted checkout page of an order: its lines, tax, policies and the hosted card fields.',
} as const satisfies RouteDef;

export const checkoutPageScript = {
  face: 'dashboard', name: 'checkout-page-script', method: 'GET', path: '/checkout/assets/checkout.js', handler: 'functions/checkout/checkout-pages/script.ts',
  auth: 'none', group: 'dashboard', table: 'none', status: 200, contentType: 'text/javascript', response: textBody,
  summary: 'The hosted checkout pages\' script.',
  // Bundled ahead from shared/checkout/browser/checkout-page.ts (infra/browser-scripts.ts) and read at run time.
  assets: [CHECKOUT_PAGE_SCRIPT],
} as const satisfies RouteDef;

/** The routes of this file by name, for the route table (`index.ts`); a handler imports its own route instead. */
export const dashboardRoutes = {
  signUp,
  signIn,
  signOut,
  me,
  claimJoinLink,
  createWebhookDestination,
  listWebhookDestinations,
  getWebhookDestination,
  deleteWebhookDestination,
  testWebhookDestination,
  resetWebhookCircuit,
  listWebhookDeliveries,
  listMembers,
  addMember,
  updateMember,
  removeMember,
  createDashboardRefund,
  checkoutPlanPage,
  checkoutOrderPage,
  checkoutPageScript,
};
