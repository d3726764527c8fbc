import { route } from '../../shared/access/auth-portal-session.ts';
import { cancelAction } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalSubscriptionCancel, ({ merchant, principal, params, body }) =>
  cancelAction(merchant, principal, params.subscriptionId, body),
);
