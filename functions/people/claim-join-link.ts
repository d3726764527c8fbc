import * as peopleRoutes from '../../shared/people/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { claimJoinLink } from '../../shared/people/people.service.ts';

export const handler = route(peopleRoutes.claimJoinLink, async ({ principal, params }) => ({
  status: 200,
  body: await claimJoinLink(principal, params.token),
}));
