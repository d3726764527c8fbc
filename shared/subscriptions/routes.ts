import { subscriptionCancellationNotFound, subscriptionNotFound, subscriptionPauseNotFound, subscriptionReactivationNotFound } from '../domain/unknown-ids.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import {
  cancellationListResponse,
  cancellationResponse,
  createCancellationRequest,
  listCancellationsQuery,
  updateCancellationRequest,
} from './cancellations.schemas.ts';
import { listChangesQuery } from './changes.schemas.ts';
import { createPauseRequest, pauseListResponse, pauseResponse, updatePauseRequest } from './pauses.schemas.ts';
import { createReactivationRequest, reactivationListResponse, reactivationResponse } from './reactivations.schemas.ts';
import {
  createSubscriptionRequest,
  getSubscriptionQuery,
  listSubscriptionsQuery,
  subscriptionListResponse,
  subscriptionResponse,
  updateSubscriptionItemsRequest,
} from './subscriptions.schemas.ts';
import { advanceTestClockRequest, testClockResponse } from './test-clock.schemas.ts';

// Subscriptions
export const listSubscriptions = {
  face: 'organization',
  name: 'subscriptions-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/subscriptions',
  handler: 'functions/subscriptions/list-subscriptions.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'read',
  query: listSubscriptionsQuery,
  status: 200,
  response: subscriptionListResponse,
  summary:
    "List the organization's subscriptions (paged; filtered by status, customer, plan, search and test data; sorted by creation, update or next charge).",
} as const satisfies RouteDef;

export const createSubscription = {
  face: 'organization',
  name: 'subscriptions-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/subscriptions',
  handler: 'functions/subscriptions/create-subscription.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'readWrite',
  body: createSubscriptionRequest,
  idempotencyKey: 'optional',
  buildsInvoices: true,
  status: 201,
  response: subscriptionResponse,
  timeoutSeconds: 20,
  summary:
    'Subscribe a customer to recurring plans: the first period is charged at once (402 when declined: it does not start), unless it has a trial or starts later.',
} as const satisfies RouteDef;

export const getSubscription = {
  face: 'organization',
  name: 'subscriptions-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/subscriptions/{subscriptionId}',
  handler: 'functions/subscriptions/get-subscription.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'read',
  query: getSubscriptionQuery,
  status: 200,
  response: subscriptionResponse,
  unknownId: subscriptionNotFound,
  summary: 'Get a subscription.',
} as const satisfies RouteDef;

export const updateSubscriptionItems = {
  face: 'organization',
  name: 'subscriptions-update-items',
  method: 'PUT',
  path: '/api/v1/public-api/organizations/{organizationId}/subscriptions/{subscriptionId}/items',
  handler: 'functions/subscriptions/update-subscription-items.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'readWrite',
  body: updateSubscriptionItemsRequest,
  buildsInvoices: true,
  status: 200,
  response: subscriptionResponse,
  unknownId: subscriptionNotFound,
  timeoutSeconds: 20,
  summary: "Change a subscription's items: keep its renewal time or start a new period now, with or without prorated credit for the unused time.",
} as const satisfies RouteDef;

// The sandbox test clock
export const getTestClock = {
  face: 'organization',
  name: 'test-clock-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/test-clock',
  handler: 'functions/subscriptions/get-test-clock.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'read',
  status: 200,
  response: testClockResponse,
  stages: ['sandbox'],
  summary: "The organization's test clock: the time its subscriptions run on in the sandbox, and whether an advance is under way.",
} as const satisfies RouteDef;

export const advanceTestClock = {
  face: 'organization',
  name: 'test-clock-advance',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/test-clock/advance',
  handler: 'functions/subscriptions/advance-test-clock.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'readWrite',
  body: advanceTestClockRequest,
  buildsInvoices: true,
  status: 200,
  response: testClockResponse,
  stages: ['sandbox'],
  timeoutSeconds: 28,
  summary: 'Move the test clock forward (at most two years): every renewal, retry, reminder, trial end and scheduled end due by then runs, in time order.',
} as const satisfies RouteDef;

// Cancellations, pauses and reactivations

export const listSubscriptionCancellations = {
  face: 'organization',
  name: 'subscription-cancellations-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-cancellations',
  handler: 'functions/subscriptions/list-cancellations.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'read',
  query: listCancellationsQuery,
  status: 200,
  response: cancellationListResponse,
  summary: "List the organization's subscription cancellations (paged; by status, reason, who cancelled and creation time; four sorts).",
} as const satisfies RouteDef;

export const createSubscriptionCancellation = {
  face: 'organization',
  name: 'subscription-cancellations-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-cancellations',
  handler: 'functions/subscriptions/create-cancellation.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'readWrite',
  body: createCancellationRequest,
  buildsInvoices: true,
  status: 201,
  response: cancellationResponse,
  timeoutSeconds: 20,
  summary:
    'Cancel a subscription: now (prorated: the unused time refunded), at the next renewal (the default) or at a date; or a draft that waits for confirmation.',
} as const satisfies RouteDef;

export const getSubscriptionCancellation = {
  face: 'organization',
  name: 'subscription-cancellations-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-cancellations/{subscriptionCancellationId}',
  handler: 'functions/subscriptions/get-cancellation.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'read',
  query: getSubscriptionQuery,
  status: 200,
  response: cancellationResponse,
  unknownId: subscriptionCancellationNotFound,
  summary: 'Get a subscription cancellation.',
} as const satisfies RouteDef;

export const updateSubscriptionCancellation = {
  face: 'organization',
  name: 'subscription-cancellations-update',
  method: 'PATCH',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-cancellations/{subscriptionCancellationId}',
  handler: 'functions/subscriptions/update-cancellation.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'readWrite',
  body: updateCancellationRequest,
  buildsInvoices: true,
  status: 200,
  response: cancellationResponse,
  unknownId: subscriptionCancellationNotFound,
  timeoutSeconds: 20,
  summary: 'Change a cancellation before it takes effect: its details and timing, confirm a draft, or revoke it.',
} as const satisfies RouteDef;

export const listSubscriptionPauses = {
  face: 'organization',
  name: 'subscription-pauses-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-pauses',
  handler: 'functions/subscriptions/list-pauses.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'read',
  query: listChangesQuery,
  status: 200,
  response: pauseListResponse,
  summary: "List the organization's subscription pauses (paged; by creation time).",
} as const satisfies RouteDef;

export const createSubscriptionPause = {
  face: 'organization',
  name: 'subscription-pauses-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-pauses',
  handler: 'functions/subscriptions/create-pause.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'readWrite',
  body: createPauseRequest,
  buildsInvoices: true,
  status: 201,
  response: pauseResponse,
  timeoutSeconds: 20,
  summary: 'Pause a subscription from effectiveAt (default now) until endAt (null: until the pause is deleted).',
} as const satisfies RouteDef;

export const getSubscriptionPause = {
  face: 'organization',
  name: 'subscription-pauses-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-pauses/{subscriptionPauseId}',
  handler: 'functions/subscriptions/get-pause.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'read',
  status: 200,
  response: pauseResponse,
  unknownId: subscriptionPauseNotFound,
  summary: 'Get a subscription pause.',
} as const satisfies RouteDef;

export const updateSubscriptionPause = {
  face: 'organization',
  name: 'subscription-pauses-update',
  method: 'PATCH',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-pauses/{subscriptionPauseId}',
  handler: 'functions/subscriptions/update-pause.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'readWrite',
  body: updatePauseRequest,
  buildsInvoices: true,
  status: 200,
  response: pauseResponse,
  unknownId: subscriptionPauseNotFound,
  timeoutSeconds: 20,
  summary: 'Change a pause that has not ended (its start while pending, its end).',
} as const satisfies RouteDef;

export const deleteSubscriptionPause = {
  face: 'organization',
  name: 'subscription-pauses-delete',
  method: 'DELETE',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-pauses/{subscriptionPauseId}',
  handler: 'functions/subscriptions/delete-pause.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'readWrite',
  buildsInvoices: true,
  status: 200,
  response: pauseResponse,
  unknownId: subscriptionPauseNotFound,
  timeoutSeconds: 20,
  summary: 'End a pause now (a pending one never takes effect; an active one resumes the subscription with a new period). Answers the ended pause.',
} as const satisfies RouteDef;

export const listSubscriptionReactivations = {
  face: 'organization',
  name: 'subscription-reactivations-list',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-reactivations',
  handler: 'functions/subscriptions/list-reactivations.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'read',
  query: listChangesQuery,
  status: 200,
  response: reactivationListResponse,
  summary: "List the organization's subscription reactivations (paged; by creation time).",
} as const satisfies RouteDef;

export const createSubscriptionReactivation = {
  face: 'organization',
  name: 'subscription-reactivations-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-reactivations',
  handler: 'functions/subscriptions/create-reactivation.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'readWrite',
  body: createReactivationRequest,
  buildsInvoices: true,
  status: 201,
  response: reactivationResponse,
  timeoutSeconds: 20,
  summary: 'Bring back an ended subscription (charging a new period), or revoke a confirmed cancellation that has not taken effect.',
} as const satisfies RouteDef;

export const getSubscriptionReactivation = {
  face: 'organization',
  name: 'subscription-reactivations-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/subscription-reactivations/{subscriptionReactivationId}',
  handler: 'functions/subscriptions/get-reactivation.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'read',
  status: 200,
  response: reactivationResponse,
  unknownId: subscriptionReactivationNotFound,
  summary: 'Get a subscription reactivation.',
} as const satisfies RouteDef;
