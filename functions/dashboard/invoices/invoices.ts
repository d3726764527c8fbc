import { route } from '../../../shared/access/auth-session-page.ts';
import { invoicesPage } from '../../../shared/dashboard/invoices/invoices.service.ts';
import * as pages from '../../../shared/dashboard/invoices/routes.ts';

export const handler = route(pages.invoicesPage, ({ merchant, role, query, event }) => invoicesPage(merchant, role, event, query));
