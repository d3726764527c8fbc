import { subscriptionNotFound } from '../domain/unknown-ids.ts';
import type { RouteDef } from '../routes/types.ts';
import {
  advanceTestClockRequest,
  createSubscriptionRequest,
  getSubscriptionQuery,
  listSubscriptionsQuery,
  subscriptionListResponse,
  subscriptionResponse,
  testClockResponse,
  updateSubscriptionItemsRequest,
} from './subscriptions.schemas.ts';

const base = '/api/v1/public-api/organizations/{organizationId}';

// Subscriptions
export const listSubscriptions = {
  face: 'organization',
  name: 'subscriptions-list',
  method: 'GET',
  path: `${base}/subscriptions`,
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
  path: `${base}/subscriptions`,
  handler: 'functions/subscriptions/create-subscription.ts',
  auth: 'orgApiKey',
  group: 'subscriptions',
  table: 'readWrite',
  body: createSubscriptionRequest,
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
  path: `${base}/subscriptions/{subscriptionId}`,
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
  path: `${base}/subscriptions/{subscriptionId}/items`,
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
  path: `${base}/test-clock`,
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
  path: `${base}/test-clock/advance`,
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
