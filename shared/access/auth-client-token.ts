/** `route()` for routes authenticated by a hosted-fields client token (`auth: 'clientToken'`). */
import { authenticateClientToken } from '../customers/index.ts';
import { authMiddleware } from './middleware.ts';
import { routeOfKind } from './route.ts';

export const route = routeOfKind<'clientToken'>(authMiddleware({ clientToken: authenticateClientToken }));
