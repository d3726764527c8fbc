import { route } from '../../../shared/access/auth-session-page.ts';
import { partnersFromForm } from '../../../shared/dashboard/partners/partners.service.ts';
import * as pages from '../../../shared/dashboard/partners/routes.ts';

export const handler = route(pages.partnersForm, ({ merchant, role, body, event }) => partnersFromForm(merchant, role, event, body));
