import { route } from '../../shared/access/auth-portal-session.ts';
import { invoicesPage } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalInvoicesPage, ({ merchant, principal, event, query }) => invoicesPage(merchant, principal, event, query.page));
