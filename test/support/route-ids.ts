/** Which of a route's path parameters are ids its scope check reads, for the tests of ids in paths. */
import { pathParametersOf } from '../../shared/platform/http/path-bounds.ts';
import type { RouteDef } from '../../shared/routes/index.ts';

/**
 * The path parameters a route's scope check reads and refuses when malformed (`shared/access/middleware.ts`): the
 * `{merchantId}` of a merchant key's, a session's or a portal session's route, the `{organizationId}` of an organization key's route,
 * and the `{accountId}` of an account's own routes (`/api/v1/public-api/accounts/{accountId}/…`). Every other one is
 * an id its handler looks up.
 */
export function scopeParameters(route: RouteDef): string[] {
  return pathParametersOf(route.path).filter(
    (name) =>
      (name === 'merchantId' && (route.auth === 'apiKey' || route.auth === 'session' || route.auth === 'portalSession')) ||
      (name === 'organizationId' && route.auth === 'orgApiKey') ||
      (name === 'accountId' && route.path.startsWith('/api/v1/public-api/accounts/{accountId}/')),
  );
}
