/**
 * The dashboard API's team removal (JSON, session auth). It is served by this module, not by shared/people, because
 * a removal also revokes the OAuth grants the person gave on the merchant (`removeTeamMember`), and shared/oauth
 * depends on shared/people: only a module above both may call each. Kept apart from `routes.ts`, whose exports are
 * all dashboard pages.
 */
import { memberNotFound } from '../../domain/unknown-ids.ts';
import type { RouteDef } from '../../platform/http/route-def.ts';

export const removeMember = {
  face: 'dashboard-api',
  name: 'members-remove',
  method: 'DELETE',
  path: '/api/v1/dashboard/merchants/{merchantId}/members/{userId}',
  handler: 'functions/dashboard/team/remove-member.ts',
  auth: 'session',
  group: 'dashboard',
  table: 'readWrite',
  status: 204,
  response: null,
  unknownId: memberNotFound,
  summary: 'Remove a member, or leave the team yourself. The last owner stays.',
} as const satisfies RouteDef;
