import { route } from '../../../shared/access/auth-session-page.ts';
import { catalogPage } from '../../../shared/dashboard/catalog/catalog.service.ts';
import * as pages from '../../../shared/dashboard/catalog/routes.ts';

export const handler = route(pages.catalogPage, ({ merchant, role, query, event }) => catalogPage(merchant, role, event, query));
