import { route } from '../../shared/access/auth-portal-session.ts';
import { paymentMethodPage } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalPaymentMethodPage, ({ merchant, principal, event, query }) =>
  paymentMethodPage(merchant, principal, event, query.done),
);
