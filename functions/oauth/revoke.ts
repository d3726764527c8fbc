import { route } from '../../shared/access/auth-none.ts';
import * as oauthRoutes from '../../shared/oauth/routes.ts';
import { revokeOAuthToken } from '../../shared/oauth/tokens.service.ts';

export const handler = route(oauthRoutes.revokeOAuthToken, async ({ body, event }) => {
  await revokeOAuthToken(body, event.headers.authorization);
  return { status: 200 };
});
