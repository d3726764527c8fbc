import { route } from '../../shared/access/auth-session-page.ts';
import { portalSettingsPage } from '../../shared/portal/dashboard.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.dashboardPortalSettingsPage, ({ merchant, role, event, query }) =>
  portalSettingsPage(merchant, role, event, query.done),
);
