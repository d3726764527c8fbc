import * as peopleRoutes from '../../shared/people/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { acceptInvite } from '../../shared/people/invites.service.ts';

export const handler = route(peopleRoutes.acceptInvitation, async ({ principal, params }) => ({
  status: 200,
  body: await acceptInvite(principal, params.token),
}));
