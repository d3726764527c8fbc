import { route } from '../../shared/http/auth-none.ts';
import { buildOpenApi } from '../../shared/http/openapi.ts';
import { config } from '../../shared/config.ts';
import { routesFor } from '../../shared/routes/index.ts';
import * as systemRoutes from '../../shared/routes/system.ts';

/** The routes of this deployment's main API: a sandbox-only route is not in the live document. */
const document = buildOpenApi(routesFor(config.stage));

export const handler = route(systemRoutes.openapi, () => ({ status: 200, body: document }));
