/** A partner (root) merchant's sub-merchants: the list, and the form owners and admins create and look after them with. */
import { htmlPage } from '../../platform/http/schemas/common.ts';
import { managers, type RouteDef } from '../../platform/http/route-def.ts';
import { partnersFormBody, partnersPageQuery } from './partners.schemas.ts';

export const partnersPage = {
  face: 'page',
  name: 'dashboard-partners',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/partners',
  handler: 'functions/dashboard/partners/partners.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: partnersPageQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary:
    "A partner merchant's sub-merchants, newest first (25 a page), with their owners and activation; on a sub-merchant, that partners are for root merchants.",
} as const satisfies RouteDef;

export const partnersForm = {
  face: 'page',
  name: 'dashboard-partners-form',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/partners',
  handler: 'functions/dashboard/partners/partners-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  roles: managers,
  body: partnersFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary:
    'Create a sub-merchant or re-mint its join link (the page showing the link once), or assign a member of the partner team to one (owners and admins).',
} as const satisfies RouteDef;
