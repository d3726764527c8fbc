import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { portalSettingsOf } from '../../shared/portal/portal-settings.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.getPortalSettings, async ({ organization }) => ({
  status: 200,
  body: objectReply(await portalSettingsOf(organization.id)),
}));
