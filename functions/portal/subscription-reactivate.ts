import { route } from '../../shared/access/auth-portal-session.ts';
import { reactivateAction } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalSubscriptionReactivate, ({ merchant, principal, params }) =>
  reactivateAction(merchant, principal, params.subscriptionId),
);
