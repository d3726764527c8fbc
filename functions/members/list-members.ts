import * as dashboardRoutes from '../../shared/routes/dashboard.ts';
import { route } from '../../shared/http/auth-session.ts';
import { listMembers } from '../../shared/services/members.ts';

export const handler = route(dashboardRoutes.listMembers, async ({ merchant }) => ({ status: 200, body: await listMembers(merchant) }));
