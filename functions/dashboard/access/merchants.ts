import { route } from '../../../shared/access/auth-session-page.ts';
import { merchantsPage } from '../../../shared/dashboard/access/switcher.service.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';

export const handler = route(pages.merchantsPage, ({ principal, query, event }) => merchantsPage(principal.userId, event, query.done));
