import { organizationIdMisplaced } from '../../../shared/platform/http/request-middleware.ts';
import { route } from '../../../shared/access/auth-none.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';

/**
 * The tokenization host's routes for paths that name an organization (`/organizations/…`, and the public API's
 * `/v1/public-api/organizations/…` with or without `/api`): the middleware refuses them with 400
 * `request.organization_id_misplaced` before this body could run; it refuses the same way should it ever run.
 */
export const handler = route(customerRoutes.tokenizationOrganizationPath, () => {
  throw organizationIdMisplaced.path();
});
