import { route } from '../../shared/access/auth-org-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { createPortalLink } from '../../shared/portal/portal-sessions.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.createPortalSession, async ({ organization, params, body }) => ({
  status: 201,
  body: objectReply(await createPortalLink(organization, params.customerId, body)),
}));
