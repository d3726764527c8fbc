import { route } from '../../shared/access/auth-none.ts';
import { submitAuthorization } from '../../shared/oauth/authorization.service.ts';
import * as oauthRoutes from '../../shared/oauth/routes.ts';

export const handler = route(oauthRoutes.submitOAuthAuthorization, ({ body, event }) =>
  submitAuthorization(body, { cookies: event.cookies ?? [], headers: event.headers, sourceIp: event.requestContext.http.sourceIp }),
);
