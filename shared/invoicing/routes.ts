import { customerInvoiceNotFound, merchantInvoiceNotFound } from '../domain/unknown-ids.ts';
import type { RouteDef } from '../platform/http/route-def.ts';
import {
  createCustomerInvoiceRequest,
  customerInvoiceResponse,
  invoicePdf,
  issueCustomerInvoiceRequest,
  merchantInvoiceListQuery,
  publicApiInvoice,
  publicApiInvoiceListResponse,
} from './invoices.schemas.ts';

export const listMerchantInvoices = {
  face: 'merchant',
  name: 'merchant-invoices-list',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/invoices',
  handler: 'functions/invoicing/invoices/list-merchant-invoices.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  query: merchantInvoiceListQuery,
  status: 200,
  response: publicApiInvoiceListResponse,
  summary: "List the merchant's customer invoices, newest first (status, search in number, buyer name and customer id; page ≥ 1, limit 1..100).",
} as const satisfies RouteDef;

export const getMerchantInvoice = {
  face: 'merchant',
  name: 'merchant-invoices-get',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/invoices/{id}',
  handler: 'functions/invoicing/invoices/get-merchant-invoice.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  status: 200,
  response: publicApiInvoice,
  unknownId: merchantInvoiceNotFound,
  summary: "Read one of the merchant's customer invoices.",
} as const satisfies RouteDef;

export const downloadMerchantInvoice = {
  face: 'merchant',
  name: 'merchant-invoices-download',
  method: 'GET',
  path: '/api/v1/public-api/merchants/{merchantId}/invoices/{id}/download',
  handler: 'functions/invoicing/invoices/download-merchant-invoice.ts',
  auth: 'apiKey',
  group: 'merchants',
  table: 'readWrite',
  status: 200,
  contentType: 'application/pdf',
  response: invoicePdf,
  invoicePdfStorage: 'read',
  timeoutSeconds: 15,
  unknownId: merchantInvoiceNotFound,
  summary: 'The invoice as a PDF (content-disposition: attachment; filename="<number>.pdf").',
} as const satisfies RouteDef;

// Customer invoices
export const createCustomerInvoice = {
  face: 'organization',
  name: 'customer-invoices-create',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/customer-invoices',
  handler: 'functions/invoicing/invoices/create-customer-invoice.ts',
  auth: 'orgApiKey',
  group: 'customers',
  table: 'readWrite',
  body: createCustomerInvoiceRequest,
  buildsInvoices: true,
  status: 201,
  response: customerInvoiceResponse,
  summary: 'Create a draft customer invoice (items priced with their tax rates, half-even; the platform is the seller of record).',
} as const satisfies RouteDef;

export const getCustomerInvoice = {
  face: 'organization',
  name: 'customer-invoices-get',
  method: 'GET',
  path: '/api/v1/public-api/organizations/{organizationId}/customer-invoices/{customerInvoiceId}',
  handler: 'functions/invoicing/invoices/get-customer-invoice.ts',
  auth: 'orgApiKey',
  group: 'customers',
  table: 'read',
  status: 200,
  response: customerInvoiceResponse,
  unknownId: customerInvoiceNotFound,
  summary: "Read one of the organization's customer invoices (an open invoice past its due date shows past_due).",
} as const satisfies RouteDef;

export const issueCustomerInvoice = {
  face: 'organization',
  name: 'customer-invoices-issue',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/customer-invoices/{customerInvoiceId}/issue',
  handler: 'functions/invoicing/invoices/issue-customer-invoice.ts',
  auth: 'orgApiKey',
  group: 'customers',
  table: 'readWrite',
  body: issueCustomerInvoiceRequest,
  status: 200,
  response: customerInvoiceResponse,
  unknownId: customerInvoiceNotFound,
  summary: "Issue a draft: open, numbered with the organization's next number, with issuedAt and dueAt.",
} as const satisfies RouteDef;

export const voidCustomerInvoice = {
  face: 'organization',
  name: 'customer-invoices-void',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/customer-invoices/{customerInvoiceId}/void',
  handler: 'functions/invoicing/invoices/void-customer-invoice.ts',
  auth: 'orgApiKey',
  group: 'customers',
  table: 'readWrite',
  status: 200,
  response: customerInvoiceResponse,
  unknownId: customerInvoiceNotFound,
  summary: 'Void a draft, open or past_due invoice (a paid one: 422); its checkout order can no longer be paid.',
} as const satisfies RouteDef;

export const markCustomerInvoiceUncollectible = {
  face: 'organization',
  name: 'customer-invoices-mark-uncollectible',
  method: 'POST',
  path: '/api/v1/public-api/organizations/{organizationId}/customer-invoices/{customerInvoiceId}/mark-uncollectible',
  handler: 'functions/invoicing/invoices/mark-customer-invoice-uncollectible.ts',
  auth: 'orgApiKey',
  group: 'customers',
  table: 'readWrite',
  status: 200,
  response: customerInvoiceResponse,
  unknownId: customerInvoiceNotFound,
  summary:
    'Mark an open or past_due invoice uncollectible (a draft, paid or voided one: 422); its checkout order can no longer be paid. It can still be voided.',
} as const satisfies RouteDef;
