import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';

export const handler = route(routes.health, () => ({ status: 200, body: { status: 'ok' } }));
