/** A merchant's home page and its go-live form. */
import { htmlPage } from '../../platform/http/schemas/common.ts';
import { managers, type RouteDef } from '../../platform/http/route-def.ts';
import { doneQuery } from '../pages.schemas.ts';
import { homeFormBody } from './home.schemas.ts';

export const homePage = {
  face: 'page',
  name: 'dashboard-home',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}',
  handler: 'functions/dashboard/home/home.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: doneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "A merchant's home: what is left before going live, its balances and its latest payments.",
} as const satisfies RouteDef;

export const homeForm = {
  face: 'page',
  name: 'dashboard-home-form',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}',
  handler: 'functions/dashboard/home/home-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  roles: managers,
  body: homeFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary: 'Go live (owners and admins): back to the home page, or the page with what is still to do.',
} as const satisfies RouteDef;
