/** A merchant's catalog page: products, their plans with each plan's hosted checkout link, and promo codes. */
import { htmlPage } from '../../platform/http/schemas/common.ts';
import { managers, type RouteDef } from '../../platform/http/route-def.ts';
import { catalogFormBody, catalogPageQuery } from './catalog.schemas.ts';

export const catalogPage = {
  face: 'page',
  name: 'dashboard-catalog',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/catalog',
  handler: 'functions/dashboard/catalog/catalog.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: catalogPageQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary:
    "A merchant's catalog: its products, its plans (price, interval, hosted checkout link) and its promo codes, each list newest first (25 a page); owners and admins create and archive them.",
} as const satisfies RouteDef;

export const catalogForm = {
  face: 'page',
  name: 'dashboard-catalog-form',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/catalog',
  handler: 'functions/dashboard/catalog/catalog-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  roles: managers,
  body: catalogFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary:
    'Manage the catalog (owners and admins): create or archive a product, create or archive a plan, create or deactivate a promo code. Back to the catalog page, or the page with why not.',
} as const satisfies RouteDef;
