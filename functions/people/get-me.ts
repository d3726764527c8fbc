import * as dashboardRoutes from '../../shared/routes/dashboard.ts';
import { route } from '../../shared/http/auth-session.ts';
import { getMe } from '../../shared/services/people.ts';

export const handler = route(dashboardRoutes.me, async ({ principal }) => ({ status: 200, body: await getMe(principal) }));
