import * as peopleRoutes from '../../shared/people/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { clearedSessionCookie, signOut } from '../../shared/people/people.service.ts';

export const handler = route(peopleRoutes.signOut, async ({ principal }) => {
  await signOut(principal);
  return { status: 204, cookies: [clearedSessionCookie] };
});
