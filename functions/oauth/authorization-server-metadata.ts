import { route } from '../../shared/access/auth-none.ts';
import { authorizationServerMetadata } from '../../shared/oauth/oauth.rules.ts';
import { discoveryHeaders } from '../../shared/platform/http/discovery.ts';
import * as oauthRoutes from '../../shared/oauth/routes.ts';
import { config } from '../../shared/platform/config.ts';

export const handler = route(oauthRoutes.authorizationServerMetadata, () => ({
  status: 200,
  body: authorizationServerMetadata(config.publicOrigin),
  headers: { ...discoveryHeaders },
}));
