import { route } from '../../../shared/access/auth-session-page.ts';
import { customersPage } from '../../../shared/dashboard/customers/customers.service.ts';
import * as pages from '../../../shared/dashboard/customers/routes.ts';

export const handler = route(pages.customersPage, ({ merchant, role, query, event }) => customersPage(merchant, role, event, query));
