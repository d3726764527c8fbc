import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { clearedSessionCookie, signOut } from '../../shared/services/people.ts';

export const handler = route(routes.signOut, async ({ principal }) => {
  await signOut(principal);
  return { status: 204, cookies: [clearedSessionCookie] };
});
