/** `route()` for routes authenticated by an organization API key (`auth: 'orgApiKey'`), with the organization scope check. */
import { authenticateOrgApiKey } from '../organizations/index.ts';
import { authMiddleware } from './middleware.ts';
import { routeOfKind } from './route.ts';

export const route = routeOfKind<'orgApiKey'>(authMiddleware({ orgApiKey: authenticateOrgApiKey }));
