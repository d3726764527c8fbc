/** `route()` for routes authenticated by a merchant key (`auth: 'apiKey'`), with the merchant scope check. */
import { authenticateApiKey } from '../people/index.ts';
import { authMiddleware } from './middleware.ts';
import { routeOfKind } from './route.ts';

export const route = routeOfKind<'apiKey'>(authMiddleware({ apiKey: authenticateApiKey }));
