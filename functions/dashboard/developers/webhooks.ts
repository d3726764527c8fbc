import { route } from '../../../shared/access/auth-session-page.ts';
import { webhooksPage } from '../../../shared/dashboard/developers/developers.service.ts';
import * as pages from '../../../shared/dashboard/developers/routes.ts';

export const handler = route(pages.webhooksPage, ({ merchant, role, query, event }) => webhooksPage(merchant, role, event, { done: query.done }));
