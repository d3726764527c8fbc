import { route } from '../../../shared/access/auth-session-page.ts';
import { paymentsPage } from '../../../shared/dashboard/payments/payments.service.ts';
import * as pages from '../../../shared/dashboard/payments/routes.ts';

export const handler = route(pages.paymentsPage, ({ merchant, role, query, event }) => paymentsPage(merchant, role, event, query));
