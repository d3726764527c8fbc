import { route } from '../../shared/access/auth-portal-session.ts';
import { pauseAction } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalSubscriptionPause, ({ merchant, principal, params, body }) =>
  pauseAction(merchant, principal, params.subscriptionId, body),
);
