import { route } from '../../shared/access/auth-none-page.ts';
import { signedOutPage } from '../../shared/portal/portal.service.ts';
import * as portalRoutes from '../../shared/portal/routes.ts';

export const handler = route(portalRoutes.portalEntryPage, ({ params, event, query }) => signedOutPage(params.merchantId, event, query.done));
