import * as dashboardRoutes from '../../shared/routes/dashboard.ts';
import { route } from '../../shared/http/auth-none.ts';
import { signUp } from '../../shared/services/people.ts';

export const handler = route(dashboardRoutes.signUp, async ({ body }) => ({ status: 201, body: await signUp(body) }));
