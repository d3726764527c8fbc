import { route } from '../../shared/access/auth-session-page.ts';
import { savePortalSettings } from '../../shared/portal/dashboard.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.dashboardPortalSettingsSave, ({ merchant, body }) => savePortalSettings(merchant, body));
