import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-session.ts';
import { inviteToTeam } from '../../../shared/people/invites.service.ts';

export const handler = route(peopleRoutes.inviteMember, async ({ merchant, principal, body }) => ({
  status: 201,
  body: await inviteToTeam(merchant, principal, { email: body.email, role: body.role ?? 'member' }),
}));
