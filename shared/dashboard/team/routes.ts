/** A merchant's team: its members and their roles, and the form owners and admins manage it with. */
import * as v from 'valibot';
import { htmlPage } from '../../platform/http/schemas/common.ts';
import { managers, type RouteDef } from '../../routes/types.ts';
import { doneQuery, formText, pageForm } from '../pages.schemas.ts';

export const teamPage = {
  face: 'page',
  name: 'dashboard-team',
  method: 'GET',
  path: '/dashboard/merchants/{merchantId}/team',
  handler: 'functions/dashboard/team/team.ts',
  auth: 'session',
  group: 'pages',
  table: 'read',
  query: doneQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: "A merchant's team: each member's name, e-mail and role; owners and admins add, change and remove members.",
} as const satisfies RouteDef;

export const teamForm = {
  face: 'page',
  name: 'dashboard-team-form',
  method: 'POST',
  path: '/dashboard/merchants/{merchantId}/team',
  handler: 'functions/dashboard/team/team-form.ts',
  auth: 'session',
  group: 'pages',
  table: 'readWrite',
  roles: managers,
  body: pageForm({ action: v.picklist(['add', 'role', 'remove']), email: formText(254), role: formText(20), userId: formText(40) }),
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary:
    "Manage the team (owners and admins): add a registered user by e-mail, change a member's role, remove a member; the last owner stays. Back to the team page, or the page with why not.",
} as const satisfies RouteDef;
