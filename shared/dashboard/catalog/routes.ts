/** A merchant's catalog page: products, their plans with each plan's hosted checkout link, and promo codes. */
import * as v from 'valibot';
import { htmlPage } from '../../platform/http/schemas/common.ts';
import { managers, type RouteDef } from '../../platform/http/route-def.ts';
import { formText, pageForm } from '../pages.schemas.ts';

export const catalogPage = {
  face: 'page',
  name: 'dashboard-catalog',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/catalog',
  handler: 'functions/dashboard/catalog/catalog.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: v.object({ done: formText(40), products_page: formText(6), plans_page: formText(6), promo_codes_page: formText(6) }),
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
  body: pageForm({
    action: v.picklist(['create_product', 'archive_product', 'create_plan', 'archive_plan', 'create_promo', 'deactivate_promo']),
    name: formText(255),
    description: formText(1000),
    type: formText(20),
    product_id: formText(60),
    plan_id: formText(60),
    promo_code_id: formText(60),
    amount: formText(30),
    currency: formText(10),
    interval: formText(20),
    code: formText(60),
    percent_off: formText(20),
    amount_off: formText(30),
    amount_off_currency: formText(10),
  }),
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary:
    'Manage the catalog (owners and admins): create or archive a product, create or archive a plan, create or deactivate a promo code. Back to the catalog page, or the page with why not.',
} as const satisfies RouteDef;
