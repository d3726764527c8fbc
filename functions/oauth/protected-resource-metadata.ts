import { route } from '../../shared/access/auth-none.ts';
import { discoveryHeaders, protectedResourceMetadata } from '../../shared/oauth/oauth.rules.ts';
import * as oauthRoutes from '../../shared/oauth/routes.ts';
import { config } from '../../shared/platform/config.ts';

export const handler = route(oauthRoutes.protectedResourceMetadata, () => ({
  status: 200,
  body: protectedResourceMetadata(config.publicOrigin),
  headers: { ...discoveryHeaders },
}));
