import { route } from '../../../shared/access/auth-session-page.ts';
import { teamFromForm } from '../../../shared/dashboard/team/team.service.ts';
import * as pages from '../../../shared/dashboard/team/routes.ts';

export const handler = route(pages.teamForm, ({ merchant, role, principal, body, event }) => teamFromForm(merchant, role, principal, event, body));
