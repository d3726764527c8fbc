import * as dashboardRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-session.ts';
import { listMembersPage } from '../../../shared/people/members.service.ts';

export const handler = route(dashboardRoutes.listMembers, async ({ merchant, query }) => ({ status: 200, body: await listMembersPage(merchant, query) }));
