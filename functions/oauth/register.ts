import { route } from '../../shared/access/auth-none.ts';
import { registerClient } from '../../shared/oauth/clients.service.ts';
import * as oauthRoutes from '../../shared/oauth/routes.ts';

export const handler = route(oauthRoutes.registerOAuthClient, async ({ body, event }) => ({
  status: 201,
  body: await registerClient(body, event.requestContext.http.sourceIp),
}));
