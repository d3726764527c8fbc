import * as dashboardRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-session.ts';
import { addMember } from '../../../shared/people/members.service.ts';

export const handler = route(dashboardRoutes.addMember, async ({ merchant, body }) => ({ status: 201, body: await addMember(merchant, body) }));
