/** `route()` for pages that authenticate nothing (`auth: 'none'`, `face: 'page'`): no authenticator, no table client. */
import { pageRouteOfKind } from './page-route.ts';

export const route = pageRouteOfKind<'none'>(null);
