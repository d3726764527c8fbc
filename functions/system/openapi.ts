import { route } from '../../shared/access/auth-none.ts';
import { config } from '../../shared/platform/config.ts';
import { openApiDocument } from '../../shared/platform/http/openapi-document.ts';
import * as systemRoutes from '../../shared/routes/system.ts';

/**
 * This deployment's document (its main API's routes: a sandbox-only route is not in the live one), built from the
 * route table ahead of time and read once per container.
 */
const document = openApiDocument(config.stage);

export const handler = route(systemRoutes.openapi, () => ({ status: 200, body: document }));
