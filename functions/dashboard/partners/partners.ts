import { route } from '../../../shared/access/auth-session-page.ts';
import { partnersPage } from '../../../shared/dashboard/partners/partners.service.ts';
import * as pages from '../../../shared/dashboard/partners/routes.ts';

export const handler = route(pages.partnersPage, ({ merchant, role, query, event }) =>
  partnersPage(merchant, role, event, { done: query.done, page: query.page }),
);
