import { route } from '../../shared/access/auth-none.ts';
import { showAuthorization } from '../../shared/oauth/authorization.service.ts';
import * as oauthRoutes from '../../shared/oauth/routes.ts';

export const handler = route(oauthRoutes.authorizeOAuth, ({ query, event }) => showAuthorization(query, event.cookies ?? [], event.rawQueryString));
