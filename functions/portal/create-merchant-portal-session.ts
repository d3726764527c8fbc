import { route } from '../../shared/access/auth-api-key.ts';
import { objectReply } from '../../shared/platform/http/envelopes.ts';
import { createPortalLink } from '../../shared/portal/portal-sessions.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.createMerchantPortalSession, async ({ merchant, params, body }) => ({
  status: 201,
  body: objectReply(await createPortalLink(merchant, params.id, body)),
}));
