/** A merchant's customer invoices: the list, and each invoice's PDF. */
import { merchantInvoiceNotFound } from '../../domain/unknown-ids.ts';
import { htmlPage, linkQuery } from '../../platform/http/schemas/common.ts';
import type { RouteDef } from '../../platform/http/route-def.ts';
import { invoicesPageQuery } from './invoices.schemas.ts';

export const invoicesPage = {
  face: 'page',
  name: 'dashboard-invoices',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/invoices',
  handler: 'functions/dashboard/invoices/invoices.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: invoicesPageQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "A merchant's customer invoices, newest first (by status; search in number, buyer name and customer id; 25 a page), each with its PDF.",
} as const satisfies RouteDef;

export const invoicePdfDownload = {
  face: 'page',
  name: 'dashboard-invoice-pdf',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/invoices/{invoiceId}/pdf',
  handler: 'functions/dashboard/invoices/invoice-pdf.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  query: linkQuery,
  invoicePdfStorage: 'read',
  status: 302,
  response: null,
  timeoutSeconds: 15,
  unknownId: merchantInvoiceNotFound,
  summary:
    'An invoice of the merchant as a PDF, for any member: a redirect (302, `location`) to a five-minute link to its stored PDF (content-disposition: attachment; filename="<number>.pdf").',
} as const satisfies RouteDef;
