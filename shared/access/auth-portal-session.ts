/** `route()` for the customer portal's signed-in pages (`auth: 'portalSession'`), with the merchant scope check. */
import { authenticatePortalSession } from '../portal/index.ts';
import { authMiddleware } from './middleware.ts';
import { routeOfKind } from './route.ts';

export const route = routeOfKind<'portalSession'>(authMiddleware({ portalSession: authenticatePortalSession }));
