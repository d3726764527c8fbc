import * as systemRoutes from '../../shared/routes/system.ts';
import { route } from '../../shared/access/auth-none.ts';

export const handler = route(systemRoutes.health, () => ({ status: 200, body: { status: 'ok' } }));
