import * as peopleRoutes from '../../shared/people/routes.ts';
import { route } from '../../shared/access/auth-none.ts';
import { signUp } from '../../shared/people/people.service.ts';

export const handler = route(peopleRoutes.signUp, async ({ body, event }) => ({ status: 201, body: await signUp(body, event.requestContext.http.sourceIp) }));
