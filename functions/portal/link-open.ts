import { route } from '../../shared/access/auth-none-page.ts';
import { openLink } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalLinkOpen, ({ params }) => openLink(params.merchantId, params.token));
