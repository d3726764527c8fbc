/** `route()` for an account's routes that exist before any key (`auth: 'accountSecret'`: the body's `secret`). */
import { authenticateAccountSecret } from '../organizations/index.ts';
import { authMiddleware } from './middleware.ts';
import { routeOfKind } from './route.ts';

export const route = routeOfKind<'accountSecret'>(authMiddleware({ accountSecret: authenticateAccountSecret }));
