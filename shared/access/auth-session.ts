/** `route()` for routes authenticated by a dashboard session (`auth: 'session'`), with the merchant scope check. */
import { authenticateSession } from '../people/index.ts';
import { authMiddleware } from './middleware.ts';
import { routeOfKind } from './route.ts';

export const route = routeOfKind<'session'>(authMiddleware({ session: authenticateSession }));
