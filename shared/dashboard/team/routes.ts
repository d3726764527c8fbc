/** A merchant's team: its members and their roles, and the form owners and admins manage it with (and any member leaves it with). */
import { htmlPage } from '../../platform/http/schemas/common.ts';
import type { RouteDef } from '../../platform/http/route-def.ts';
import { doneQuery } from '../pages.schemas.ts';
import { teamFormBody } from './team.schemas.ts';

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
  summary: "A merchant's team: each member's name, e-mail and role; owners and admins invite, add, change and remove members and see pending invitations.",
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
  // An invitation's link is e-mailed to the person invited.
  sendsMail: true,
  // Any member may post it, to leave the team; every other action is for owners and admins (the team service holds it).
  body: teamFormBody,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary:
    "Manage the team (owners and admins): invite an e-mail address or revoke an invitation, add a registered user, change a member's role, remove a member; or leave the team (any member). The last owner stays. Back to the team page (the switcher after leaving), or the page with why not.",
} as const satisfies RouteDef;
