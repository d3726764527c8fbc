/** A merchant's customers: the list with search, and a customer's page. */
import { customerNotFound } from '../../domain/unknown-ids.ts';
import { htmlPage, linkQuery } from '../../platform/http/schemas/common.ts';
import type { RouteDef } from '../../platform/http/route-def.ts';
import { customersPageQuery } from './customers.schemas.ts';

export const customersPage = {
  face: 'page',
  name: 'dashboard-customers',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/customers',
  handler: 'functions/dashboard/customers/customers.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: customersPageQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "A merchant's customers, newest first, searched by name or e-mail (25 a page).",
} as const satisfies RouteDef;

export const customerPage = {
  face: 'page',
  name: 'dashboard-customer',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/customers/{customerId}',
  handler: 'functions/dashboard/customers/customer.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: linkQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  unknownId: customerNotFound,
  summary: 'A customer: their payments, saved cards (brand, last four and expiry only), subscriptions and invoices.',
} as const satisfies RouteDef;
