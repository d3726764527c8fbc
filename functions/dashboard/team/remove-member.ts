import { route } from '../../../shared/access/auth-session.ts';
import * as teamRoutes from '../../../shared/dashboard/team/api-routes.ts';
import { removeTeamMember } from '../../../shared/dashboard/team/removal.service.ts';

export const handler = route(teamRoutes.removeMember, async ({ merchant, principal, params }) => {
  await removeTeamMember(merchant, principal, params.userId);
  return { status: 204 };
});
