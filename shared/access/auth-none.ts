/** `route()` for routes that authenticate nothing (`auth: 'none'`): no authenticator, no scope check, no table client. */
import { routeOfKind } from './route.ts';

export const route = routeOfKind<'none'>(null);
