import { route } from '../../../shared/access/auth-session-page.ts';
import { catalogForm } from '../../../shared/dashboard/catalog/catalog.service.ts';
import * as pages from '../../../shared/dashboard/catalog/routes.ts';

export const handler = route(pages.catalogForm, ({ merchant, role, body, event }) => catalogForm(merchant, role, event, body));
