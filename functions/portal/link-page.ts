import { route } from '../../shared/access/auth-none-page.ts';
import { linkPage } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalLinkPage, ({ params, event }) => linkPage(params.merchantId, params.token, event));
