import * as dashboardRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-session.ts';
import { removeMember } from '../../../shared/people/members.service.ts';

export const handler = route(dashboardRoutes.removeMember, async ({ merchant, principal, params }) => {
  await removeMember(merchant, principal, params.userId!);
  return { status: 204 };
});
