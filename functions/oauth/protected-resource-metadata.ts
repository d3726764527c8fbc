import { route } from '../../shared/access/auth-none.ts';
import { protectedResourceMetadata } from '../../shared/oauth/oauth.rules.ts';
import { discoveryHeaders } from '../../shared/platform/http/discovery.ts';
import * as oauthRoutes from '../../shared/oauth/routes.ts';
import { config } from '../../shared/platform/config.ts';

export const handler = route(oauthRoutes.protectedResourceMetadata, () => ({
  status: 200,
  body: protectedResourceMetadata(config.publicOrigin),
  headers: { ...discoveryHeaders },
}));
