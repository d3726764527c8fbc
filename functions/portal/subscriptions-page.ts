import { route } from '../../shared/access/auth-portal-session.ts';
import { subscriptionsPage } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalSubscriptionsPage, ({ merchant, principal, event, query }) =>
  subscriptionsPage(merchant, principal, event, query.done),
);
