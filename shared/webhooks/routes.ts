import { accountWebhookDestinationNotFound, eventNotFound, webhookDestinationNotFound } from '../domain/unknown-ids.ts';
import { pageOnlyQuery } from '../platform/http/schemas/common.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import {
  createOrganizationWebhookDestinationRequest,
  createdOrganizationWebhookDestinationResponse,
  listOrganizationWebhookDestinationsQuery,
  organizationWebhookDestinationListResponse,
  organizationWebhookDestinationResponse,
  updateOrganizationWebhookDestinationRequest,
} from './org-webhooks.schemas.ts';
import {
  createWebhookDestinationRequest,
  createdWebhookDestination,
  listDeliveriesQuery,
  webhookDeliveryPage,
  webhookDestination,
  webhookDestinationPage,
  webhookPingResult,
} from './webhooks.schemas.ts';
import { managers } from '../platform/http/route-def.ts';
import { listEventsQuery, publicApiEvent, publicApiEventList } from './events.schemas.ts';

// Events (merchant API)
export const listMerchantEvents = {
  face: 'merchant',
  name: 'merchant-events-list',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/events',
  handler: 'functions/webhooks/list-events.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'read',
  query: listEventsQuery,
  status: 200,
  response: publicApiEventList,
  summary:
    "The merchant's events of the last 30 days, newest first in the order they were written (`type`, `createdFrom`, `createdTo`, `after`, `limit` 1..100, `cursor`), each with the exact body its webhooks carried and each destination's delivery status. Nothing is sent again.",
} as const satisfies RouteDef;

export const getMerchantEvent = {
  face: 'merchant',
  name: 'merchant-events-get',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/events/{eventId}',
  handler: 'functions/webhooks/get-event.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'read',
  status: 200,
  response: publicApiEvent,
  unknownId: eventNotFound,
  summary: "One event of the merchant (the id a delivery's X-Webhook-Id carries), with its webhook body and each destination's delivery status.",
} as const satisfies RouteDef;

// Organization webhook destinations
export const createOrganizationWebhookDestination = {
  face: 'organization',
  name: 'org-webhook-destinations-create',
  method: 'POST',
  path: '/api/v1/webhook-destinations',
  handler: 'functions/webhooks/org-webhooks/create-destination.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  signsWebhooks: true,
  body: createOrganizationWebhookDestinationRequest,
  status: 201,
  response: createdOrganizationWebhookDestinationResponse,
  summary: 'Create a webhook destination of the calling account; its signing secret is shown in this response only.',
} as const satisfies RouteDef;

export const listOrganizationWebhookDestinations = {
  face: 'organization',
  name: 'org-webhook-destinations-list',
  method: 'GET',
  path: '/api/v1/webhook-destinations',
  handler: 'functions/webhooks/org-webhooks/list-destinations.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'read',
  query: listOrganizationWebhookDestinationsQuery,
  status: 200,
  response: organizationWebhookDestinationListResponse,
  summary: "List the calling account's webhook destinations by creation time (paged).",
} as const satisfies RouteDef;

export const getOrganizationWebhookDestination = {
  face: 'organization',
  name: 'org-webhook-destinations-get',
  method: 'GET',
  path: '/api/v1/webhook-destinations/{webhookDestinationId}',
  handler: 'functions/webhooks/org-webhooks/get-destination.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'read',
  status: 200,
  response: organizationWebhookDestinationResponse,
  unknownId: accountWebhookDestinationNotFound,
  summary: "Read one of the calling account's webhook destinations (never its password or secret).",
} as const satisfies RouteDef;

export const updateOrganizationWebhookDestination = {
  face: 'organization',
  name: 'org-webhook-destinations-update',
  method: 'PATCH',
  path: '/api/v1/webhook-destinations/{webhookDestinationId}',
  handler: 'functions/webhooks/org-webhooks/update-destination.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  signsWebhooks: true,
  body: updateOrganizationWebhookDestinationRequest,
  status: 200,
  response: organizationWebhookDestinationResponse,
  unknownId: accountWebhookDestinationNotFound,
  summary: "Change the url, auth or eventTypes of a webhook destination; it also closes the destination's circuit.",
} as const satisfies RouteDef;

export const deleteOrganizationWebhookDestination = {
  face: 'organization',
  name: 'org-webhook-destinations-delete',
  method: 'DELETE',
  path: '/api/v1/webhook-destinations/{webhookDestinationId}',
  handler: 'functions/webhooks/org-webhooks/delete-destination.ts',
  auth: 'orgApiKey',
  group: 'organizations',
  table: 'readWrite',
  status: 200,
  response: organizationWebhookDestinationResponse,
  unknownId: accountWebhookDestinationNotFound,
  summary: 'Delete a webhook destination of the calling account; answers the deleted destination.',
} as const satisfies RouteDef;

/** The routes of this file by name, for the route table (`index.ts`); a handler imports its own route instead. */

// Webhook destinations
export const createWebhookDestination = {
  face: 'dashboard-api',
  name: 'webhook-destinations-create',
  method: 'POST',
  path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations',
  handler: 'functions/webhooks/create-destination.ts',
  auth: 'session',
  roles: managers,
  group: 'dashboard',
  table: 'readWrite',
  body: createWebhookDestinationRequest,
  signsWebhooks: true,
  status: 201,
  response: createdWebhookDestination,
  summary: 'Create a webhook destination; its signing secret is shown in this response only.',
} as const satisfies RouteDef;

export const listWebhookDestinations = {
  face: 'dashboard-api',
  name: 'webhook-destinations-list',
  method: 'GET',
  path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations',
  handler: 'functions/webhooks/list-destinations.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'read',
  query: pageOnlyQuery,
  status: 200,
  response: webhookDestinationPage,
  summary: "List the merchant's webhook destinations, a page (`page`, `limit`) at a time.",
} as const satisfies RouteDef;

export const getWebhookDestination = {
  face: 'dashboard-api',
  name: 'webhook-destinations-get',
  method: 'GET',
  path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations/{id}',
  handler: 'functions/webhooks/get-destination.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'read',
  status: 200,
  response: webhookDestination,
  unknownId: webhookDestinationNotFound,
  summary: 'Read a webhook destination.',
} as const satisfies RouteDef;

export const deleteWebhookDestination = {
  face: 'dashboard-api',
  name: 'webhook-destinations-delete',
  method: 'DELETE',
  path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations/{id}',
  handler: 'functions/webhooks/delete-destination.ts',
  auth: 'session',
  roles: managers,
  group: 'dashboard',
  table: 'readWrite',
  status: 204,
  response: null,
  unknownId: webhookDestinationNotFound,
  summary: 'Delete a webhook destination.',
} as const satisfies RouteDef;

export const testWebhookDestination = {
  face: 'dashboard-api',
  name: 'webhook-destinations-test',
  method: 'POST',
  path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations/{id}/test',
  handler: 'functions/webhooks/test-destination.ts',
  auth: 'session',
  roles: managers,
  group: 'dashboard',
  table: 'read',
  timeoutSeconds: 20,
  signsWebhooks: true,
  status: 200,
  response: webhookPingResult,
  unknownId: webhookDestinationNotFound,
  summary: "Send a signed test ping and report the receiver's answer (no history, no effect on the circuit).",
} as const satisfies RouteDef;

export const resetWebhookCircuit = {
  face: 'dashboard-api',
  name: 'webhook-destinations-reset-circuit',
  method: 'POST',
  path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations/{id}/reset-circuit',
  handler: 'functions/webhooks/reset-circuit.ts',
  auth: 'session',
  roles: managers,
  group: 'dashboard',
  table: 'readWrite',
  status: 200,
  response: webhookDestination,
  unknownId: webhookDestinationNotFound,
  summary: 'Close an open circuit; events skipped meanwhile are not replayed.',
} as const satisfies RouteDef;

export const listWebhookDeliveries = {
  face: 'dashboard-api',
  name: 'webhook-deliveries-list',
  method: 'GET',
  path: '/api/v1/dashboard/merchants/{merchantId}/webhook-destinations/{id}/deliveries',
  handler: 'functions/webhooks/list-deliveries.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'read',
  query: listDeliveriesQuery,
  status: 200,
  response: webhookDeliveryPage,
  unknownId: webhookDestinationNotFound,
  summary: 'Delivery history, newest first.',
} as const satisfies RouteDef;
