import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-session.ts';
import { listMembersPage } from '../../../shared/people/members.service.ts';

export const handler = route(peopleRoutes.listMembers, async ({ merchant, query }) => ({ status: 200, body: await listMembersPage(merchant, query) }));
