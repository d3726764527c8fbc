import { route } from '../../shared/access/auth-portal-session.ts';
import { subscriptionAction } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalSubscriptionAction, ({ merchant, principal, params, body }) =>
  subscriptionAction(merchant, principal, params.subscriptionId!, body),
);
