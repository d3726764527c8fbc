import { route } from '../../shared/access/auth-none-page.ts';
import { requestSignInLink } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalSignIn, ({ params, body, event }) => requestSignInLink(params.merchantId, body.email, event));
