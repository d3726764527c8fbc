import { route } from '../../shared/access/auth-portal-session.ts';
import { signOut } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalSignOut, ({ merchant, principal }) => signOut(merchant, principal));
