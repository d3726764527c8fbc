import { route } from '../../../shared/access/auth-session-page.ts';
import { customerPage } from '../../../shared/dashboard/customers/customers.service.ts';
import * as pages from '../../../shared/dashboard/customers/routes.ts';

export const handler = route(pages.customerPage, ({ merchant, role, params, event }) => customerPage(merchant, role, event, params.customerId));
