import * as dashboardRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-session.ts';
import { listMembers } from '../../../shared/people/members.service.ts';

export const handler = route(dashboardRoutes.listMembers, async ({ merchant }) => ({ status: 200, body: await listMembers(merchant) }));
