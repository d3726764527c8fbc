import { route } from '../../shared/access/auth-none.ts';
import * as oauthRoutes from '../../shared/oauth/routes.ts';
import { issueTokens, tokenResponseHeaders } from '../../shared/oauth/tokens.service.ts';

export const handler = route(oauthRoutes.issueOAuthToken, async ({ body, event }) => ({
  status: 200,
  body: await issueTokens(body, event.headers.authorization),
  headers: { ...tokenResponseHeaders },
}));
