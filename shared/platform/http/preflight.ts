/** The function of a CORS face's preflight route (`cors.ts`): 204 with the grants of the path's routes, or 404. */
import { routeMatcher } from './route-match.ts';
import type { RouteDef } from './route-def.ts';
import { preflightFaceOf, preflightHeaders, type preflightRoutes } from './cors.ts';
import { errorBody, securityHeaders } from './errors.ts';
import type { HttpEvent, HttpResult } from './types.ts';

/** The preflight handler of `face` over `routes` (the face's routes; those its preflight does not grant are left out). */
export function preflightHandler(face: keyof typeof preflightRoutes, routes: readonly RouteDef[]) {
  const matcher = routeMatcher(routes.filter((r) => preflightFaceOf(r) === face));
  return async (event: HttpEvent): Promise<HttpResult> => {
    const grants = preflightHeaders(face, matcher.methodsOf(event.rawPath));
    if (grants) return { statusCode: 204, headers: { ...securityHeaders(), ...grants } };
    return {
      statusCode: 404,
      headers: { ...securityHeaders(), 'content-type': 'application/json', 'access-control-allow-origin': '*' },
      body: errorBody(face, 404, 'route.not_found', 'No route has this path.'),
    };
  };
}
