import { route } from '../../../shared/access/auth-session-page.ts';
import { teamPage } from '../../../shared/dashboard/team/team.service.ts';
import * as pages from '../../../shared/dashboard/team/routes.ts';

export const handler = route(pages.teamPage, ({ merchant, role, principal, query, event }) => teamPage(merchant, role, principal, event, { done: query.done }));
