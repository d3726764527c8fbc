/** CORS preflight of the buyer checkout routes: 204 with the grants of the path's routes, or 404. */
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types.ts';
import { preflightHeaders } from '../../shared/platform/http/cors.ts';
import { errorBody, securityHeaders } from '../../shared/platform/http/errors.ts';
import { checkoutRoutes } from '../../shared/routes/checkout.ts';
import { routeMatcher } from '../../shared/routes/match.ts';

const matcher = routeMatcher(Object.values(checkoutRoutes));

export const handler = async (event: HttpEvent): Promise<HttpResult> => {
  const grants = preflightHeaders(matcher.methodsOf(event.rawPath));
  if (grants) return { statusCode: 204, headers: { ...securityHeaders(), ...grants } };
  return {
    statusCode: 404,
    headers: { ...securityHeaders(), 'content-type': 'application/json', 'access-control-allow-origin': '*' },
    body: errorBody('checkout', 404, 'route.not_found', 'No route has this path.'),
  };
};
