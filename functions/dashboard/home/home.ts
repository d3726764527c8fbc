import { route } from '../../../shared/access/auth-session-page.ts';
import { homePage } from '../../../shared/dashboard/home/home.service.ts';
import * as pages from '../../../shared/dashboard/home/routes.ts';

export const handler = route(pages.homePage, ({ merchant, role, query, event }) => homePage(merchant, role, event, query.done));
