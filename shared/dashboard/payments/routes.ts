/** A merchant's payments: the list (filtered, searched, paged), a payment's page with its timeline, and its refund form. */
import { transactionNotFound } from '../../domain/unknown-ids.ts';
import { htmlPage } from '../../platform/http/schemas/common.ts';
import { managers, type RouteDef } from '../../platform/http/route-def.ts';
import { doneQuery } from '../pages.schemas.ts';
import { paymentRefundFormBody, paymentsPageQuery } from './payments.schemas.ts';

export const paymentsPage = {
  face: 'page',
  name: 'dashboard-payments',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/payments',
  handler: 'functions/dashboard/payments/payments.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: paymentsPageQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "A merchant's payments, newest first: filtered by status and creation date, searched, paged.",
} as const satisfies RouteDef;

export const paymentPage = {
  face: 'page',
  name: 'dashboard-payment',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/payments/{transactionId}',
  handler: 'functions/dashboard/payments/payment.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: doneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  unknownId: transactionNotFound,
  summary: 'A payment: its facts and its timeline (the charge, its refunds, its dispute), and the refund form for owners and admins.',
} as const satisfies RouteDef;

export const paymentRefundForm = {
  face: 'page',
  name: 'dashboard-payment-refund',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/payments/{transactionId}',
  handler: 'functions/dashboard/payments/payment-refund.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  roles: managers,
  body: paymentRefundFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  unknownId: transactionNotFound,
  summary:
    'Refund a payment (owners and admins), in two steps: `review` shows what would be refunded and asks, `refund` refunds it (no webhook) and goes back to the payment.',
} as const satisfies RouteDef;
