import { route } from '../../../shared/access/auth-session-page.ts';
import { developersPage } from '../../../shared/dashboard/developers/developers.service.ts';
import * as pages from '../../../shared/dashboard/developers/routes.ts';

export const handler = route(pages.developersPage, ({ merchant, role, event }) => developersPage(merchant, role, event));
