import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-session.ts';
import { updateMemberRole } from '../../../shared/people/members.service.ts';

export const handler = route(peopleRoutes.updateMember, async ({ merchant, principal, params, body }) => ({
  status: 200,
  body: await updateMemberRole(merchant, principal, params.userId, body.role),
}));
