import { route } from '../../shared/access/auth-session-page.ts';
import { portalLinkPage } from '../../shared/portal/dashboard.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.dashboardPortalLink, ({ merchant, role, event, params }) => portalLinkPage(merchant, role, event, params.customerId));
