import * as peopleRoutes from '../../shared/people/routes.ts';
import { route } from '../../shared/access/auth-none.ts';
import { signIn } from '../../shared/people/people.service.ts';

export const handler = route(peopleRoutes.signIn, async ({ body, event }) => {
  const session = await signIn(body, event.requestContext.http.sourceIp);
  return { status: 201, body: session.body, cookies: [session.cookie] };
});
