import { route } from '../../shared/http/route.ts';
import { buildOpenApi } from '../../shared/http/openapi.ts';
import { routeList } from '../../shared/routes/index.ts';
import { systemRoutes } from '../../shared/routes/system.ts';

const document = buildOpenApi(routeList);

export const handler = route(systemRoutes.openapi, () => ({ status: 200, body: document }));
