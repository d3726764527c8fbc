import { routeList, routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { buildOpenApi } from '../../shared/http/openapi.ts';

const document = buildOpenApi(routeList);

export const handler = route(routes.openapi, () => ({ status: 200, body: document }));
