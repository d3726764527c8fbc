import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { changePortalSettings } from '../../shared/portal/portal-settings.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.updatePortalSettings, async ({ organization, body }) => ({
  status: 200,
  body: objectReply(await changePortalSettings(organization.id, body)),
}));
