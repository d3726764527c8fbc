/** A merchant's subscriptions: the list by status, a subscription's page, and its actions (cancel, pause, resume). */
import { subscriptionNotFound } from '../../domain/unknown-ids.ts';
import { htmlPage } from '../../platform/http/schemas/common.ts';
import { managers, type RouteDef } from '../../platform/http/route-def.ts';
import { doneQuery } from '../pages.schemas.ts';
import { subscriptionCancelFormBody, subscriptionPauseFormBody, subscriptionsPageQuery } from './subscriptions.schemas.ts';

export const subscriptionsPage = {
  face: 'page',
  name: 'dashboard-subscriptions',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/subscriptions',
  handler: 'functions/dashboard/subscriptions/subscriptions.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: subscriptionsPageQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "A merchant's subscriptions, newest first, by status (25 a page).",
} as const satisfies RouteDef;

export const subscriptionPage = {
  face: 'page',
  name: 'dashboard-subscription',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/subscriptions/{subscriptionId}',
  handler: 'functions/dashboard/subscriptions/subscription.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: doneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  unknownId: subscriptionNotFound,
  summary: 'A subscription: its status, next charge, periods and invoices, and (owners and admins) cancel, pause and resume.',
} as const satisfies RouteDef;

export const subscriptionCancelForm = {
  face: 'page',
  name: 'dashboard-subscription-cancel',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/subscriptions/{subscriptionId}/cancel',
  handler: 'functions/dashboard/subscriptions/cancel-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  roles: managers,
  body: subscriptionCancelFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  buildsInvoices: true,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  timeoutSeconds: 20,
  unknownId: subscriptionNotFound,
  summary:
    'Cancel a subscription now or at the end of its period (owners and admins), as the organization API does: back to its page, or a page with the refusal.',
} as const satisfies RouteDef;

export const subscriptionPauseForm = {
  face: 'page',
  name: 'dashboard-subscription-pause',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/subscriptions/{subscriptionId}/pause',
  handler: 'functions/dashboard/subscriptions/pause-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  roles: managers,
  body: subscriptionPauseFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  buildsInvoices: true,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  timeoutSeconds: 20,
  unknownId: subscriptionNotFound,
  summary:
    'Pause a subscription until it is resumed, or resume it (owners and admins), as the organization API does: back to its page, or a page with the refusal.',
} as const satisfies RouteDef;
