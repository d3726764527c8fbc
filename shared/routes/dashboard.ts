/** The dashboard back end (session auth): people, join links, team members and webhook destinations. */
import {
  addMemberRequest, joinLinkClaim, me, member, members, session, signInRequest, signUpRequest, updateMemberRequest, user,
} from '../schemas/dashboard.ts';
import { textBody } from '../schemas/hosted-fields.ts';
import {
  createdWebhookDestination, createWebhookDestinationRequest, listDeliveriesQuery, webhookDeliveryPage, webhookDestination,
  webhookDestinations, webhookPingResult,
} from '../schemas/webhooks.ts';
import { createRefundRequest, refund } from '../schemas/refunds.ts';
import { faceRoutes } from './types.ts';

const base = '/api/v1/dashboard';
const destinations = `${base}/merchants/{merchantId}/webhook-destinations`;
const managers = ['owner', 'admin'] as const;

export const dashboardRoutes = faceRoutes('dashboard', {
  signUp: {
    name: 'users-sign-up', method: 'POST', path: `${base}/users`, handler: 'functions/people/sign-up.ts',
    auth: 'none', group: 'dashboard', table: 'readWrite', body: signUpRequest, status: 201, response: user, summary: 'Create a user.',
  },
  signIn: {
    name: 'sessions-create', method: 'POST', path: `${base}/sessions`, handler: 'functions/people/sign-in.ts',
    auth: 'none', group: 'dashboard', table: 'readWrite', body: signInRequest, status: 201, response: session, summary: 'Sign in: start a session.',
  },
  signOut: {
    name: 'sessions-delete', method: 'DELETE', path: `${base}/sessions/current`, handler: 'functions/people/sign-out.ts',
    auth: 'session', group: 'dashboard', table: 'readWrite', status: 204, response: null, summary: 'Sign out: end the current session.',
  },
  me: {
    name: 'me-get', method: 'GET', path: `${base}/me`, handler: 'functions/people/get-me.ts',
    auth: 'session', group: 'dashboard', table: 'read', status: 200, response: me, summary: 'The signed-in user and their merchants.',
  },
  claimJoinLink: {
    name: 'join-links-claim', method: 'POST', path: `${base}/join-links/{token}/claim`, handler: 'functions/people/claim-join-link.ts',
    auth: 'session', group: 'dashboard', table: 'readWrite', status: 200, response: joinLinkClaim,
    summary: 'Claim a merchant\'s ownership through its latest join link.',
  },

  // Webhook destinations
  createWebhookDestination: {
    name: 'webhook-destinations-create', method: 'POST', path: destinations, handler: 'functions/webhooks/create-destination.ts',
    auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', body: createWebhookDestinationRequest, signsWebhooks: true,
    status: 201, response: createdWebhookDestination,
    summary: 'Create a webhook destination; its signing secret is shown in this response only.',
  },
  listWebhookDestinations: {
    name: 'webhook-destinations-list', method: 'GET', path: destinations, handler: 'functions/webhooks/list-destinations.ts',
    auth: 'session', group: 'dashboard', table: 'read', status: 200, response: webhookDestinations,
    summary: 'List the merchant\'s webhook destinations.',
  },
  getWebhookDestination: {
    name: 'webhook-destinations-get', method: 'GET', path: `${destinations}/{id}`, handler: 'functions/webhooks/get-destination.ts',
    auth: 'session', group: 'dashboard', table: 'read', status: 200, response: webhookDestination, summary: 'Read a webhook destination.',
  },
  deleteWebhookDestination: {
    name: 'webhook-destinations-delete', method: 'DELETE', path: `${destinations}/{id}`, handler: 'functions/webhooks/delete-destination.ts',
    auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', status: 204, response: null, summary: 'Delete a webhook destination.',
  },
  testWebhookDestination: {
    name: 'webhook-destinations-test', method: 'POST', path: `${destinations}/{id}/test`, handler: 'functions/webhooks/test-destination.ts',
    auth: 'session', roles: managers, group: 'dashboard', table: 'read', timeoutSeconds: 20, signsWebhooks: true,
    status: 200, response: webhookPingResult,
    summary: 'Send a signed test ping and report the receiver\'s answer (no history, no effect on the circuit).',
  },
  resetWebhookCircuit: {
    name: 'webhook-destinations-reset-circuit', method: 'POST', path: `${destinations}/{id}/reset-circuit`, handler: 'functions/webhooks/reset-circuit.ts',
    auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', status: 200, response: webhookDestination,
    summary: 'Close an open circuit; events skipped meanwhile are not replayed.',
  },
  listWebhookDeliveries: {
    name: 'webhook-deliveries-list', method: 'GET', path: `${destinations}/{id}/deliveries`, handler: 'functions/webhooks/list-deliveries.ts',
    auth: 'session', group: 'dashboard', table: 'read', query: listDeliveriesQuery, status: 200, response: webhookDeliveryPage,
    summary: 'Delivery history, newest first.',
  },

  // Team members (who may change whom: shared/services/members.ts)
  listMembers: {
    name: 'members-list', method: 'GET', path: `${base}/merchants/{merchantId}/members`, handler: 'functions/members/list-members.ts',
    auth: 'session', group: 'dashboard', table: 'read', status: 200, response: members, summary: 'List the merchant\'s team.',
  },
  addMember: {
    name: 'members-add', method: 'POST', path: `${base}/merchants/{merchantId}/members`, handler: 'functions/members/add-member.ts',
    auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', body: addMemberRequest, status: 201, response: member,
    summary: 'Add an existing user, by sign-in e-mail, as admin or member.',
  },
  updateMember: {
    name: 'members-update', method: 'PATCH', path: `${base}/merchants/{merchantId}/members/{userId}`, handler: 'functions/members/update-member.ts',
    auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite', body: updateMemberRequest, status: 200, response: member,
    summary: 'Change a member\'s role (owners: any role; admins: admin or member, never an owner). The last owner stays.',
  },
  removeMember: {
    name: 'members-remove', method: 'DELETE', path: `${base}/merchants/{merchantId}/members/{userId}`, handler: 'functions/members/remove-member.ts',
    auth: 'session', group: 'dashboard', table: 'readWrite', status: 204, response: null,
    summary: 'Remove a member, or leave the team yourself. The last owner stays.',
  },

  // Refunds
  createDashboardRefund: {
    name: 'dashboard-refunds-create', method: 'POST', path: `${base}/merchants/{merchantId}/transactions/{transactionId}/refunds`,
    handler: 'functions/refunds/dashboard-create-refund.ts', auth: 'session', roles: managers, group: 'dashboard', table: 'readWrite',
    body: createRefundRequest, status: 201, response: refund,
    summary: 'Refund all that is left of a completed or partially refunded transaction, or part of it (optional Idempotency-Key; no webhook).',
  },

  // Hosted checkout pages (static shells on the main origin; their script calls the buyer checkout API)
  checkoutPlanPage: {
    name: 'checkout-page-plan', method: 'GET', path: '/checkout/plans/{planId}', handler: 'functions/checkout-pages/plan-page.ts',
    auth: 'none', group: 'dashboard', table: 'none', status: 200, contentType: 'text/html', response: textBody,
    summary: 'The hosted checkout page of a plan: price, tax, promo code, policies and the hosted card fields.',
  },
  checkoutOrderPage: {
    name: 'checkout-page-order', method: 'GET', path: '/checkout/orders/{orderId}', handler: 'functions/checkout-pages/order-page.ts',
    auth: 'none', group: 'dashboard', table: 'none', status: 200, contentType: 'text/html', response: textBody,
    summary: 'The hosted checkout page of an order: its lines, tax, policies and the hosted card fields.',
  },
  checkoutPageScript: {
    name: 'checkout-page-script', method: 'GET', path: '/checkout/assets/checkout.js', handler: 'functions/checkout-pages/script.ts',
    auth: 'none', group: 'dashboard', table: 'none', status: 200, contentType: 'text/javascript', response: textBody,
    summary: 'The hosted checkout pages\' script.',
  },
});
