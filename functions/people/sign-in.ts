import * as peopleRoutes from '../../shared/people/routes.ts';
import { route } from '../../shared/access/auth-none.ts';
import { signIn } from '../../shared/people/people.service.ts';

export const handler = route(peopleRoutes.signIn, async ({ body, event }) => {
  const session = await signIn(body, { sourceIp: event.requestContext.http.sourceIp, cookies: event.cookies ?? [] });
  return { status: 201, body: session.body, cookies: session.cookies };
});
