import { route } from '../../shared/access/auth-portal-session.ts';
import { replaceCard } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalPaymentMethodSave, ({ merchant, principal, body }) => replaceCard(merchant, principal, body.token));
