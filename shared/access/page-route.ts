/**
 * `route()` for pages (`face: 'page'`): the wiring of `route.ts` with the page kit, the CSRF token check of a
 * signed-in page's forms (`page-guard.ts`) and the error pages (`page-errors.ts`). A page's handler takes `route` from
 * its auth kind's page module (`auth-none-page.ts`, `auth-session-page.ts`, `auth-portal-session.ts`); every other
 * function is wired without the kit and carries no page rendering.
 */
import type { AuthKind, RouteDef } from '../platform/http/route-def.ts';
import { pageCsrfGuard } from '../platform/http/page-guard.ts';
import { pageErrorResult } from '../platform/http/page-errors.ts';
import { type AuthMiddleware, type PageKit, type RouteHandler, wire } from './route.ts';

const pageKit: PageKit = { csrfGuard: pageCsrfGuard, errorResult: pageErrorResult };

/** The `route()` of one auth kind's pages: the routes it takes are only pages of kind `K`. */
export const pageRouteOfKind =
  <K extends AuthKind>(auth: AuthMiddleware | null) =>
  <const R extends RouteDef & { readonly auth: K; readonly face: 'page' }>(def: R, handler: RouteHandler<R>) =>
    wire(def, handler, auth, pageKit);
