import * as peopleRoutes from '../../shared/people/routes.ts';
import { route } from '../../shared/access/auth-session.ts';
import { getMe } from '../../shared/people/people.service.ts';

export const handler = route(peopleRoutes.me, async ({ principal }) => ({ status: 200, body: await getMe(principal) }));
