import * as dashboardRoutes from '../../shared/routes/dashboard.ts';
import { route } from '../../shared/http/auth-session.ts';
import { clearedSessionCookie, signOut } from '../../shared/services/people.ts';

export const handler = route(dashboardRoutes.signOut, async ({ principal }) => {
  await signOut(principal);
  return { status: 204, cookies: [clearedSessionCookie] };
});
