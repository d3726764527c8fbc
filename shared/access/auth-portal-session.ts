/** `route()` for the customer portal's signed-in pages (`auth: 'portalSession'`), with the merchant scope check. */
import { authenticatePortalSession } from '../portal/index.ts';
import { authMiddleware } from './middleware.ts';
import { pageRouteOfKind } from './page-route.ts';

export const route = pageRouteOfKind<'portalSession'>(authMiddleware({ portalSession: authenticatePortalSession }));
