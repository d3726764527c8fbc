/** `route()` for the dashboard's pages (`auth: 'session'`, `face: 'page'`), with the merchant scope check. */
import { authenticateSession } from '../people/index.ts';
import { authMiddleware } from './middleware.ts';
import { pageRouteOfKind } from './page-route.ts';

export const route = pageRouteOfKind<'session'>(authMiddleware({ session: authenticateSession }));
