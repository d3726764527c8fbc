/** CORS preflight of the OAuth registration, token and revocation endpoints: 204 with the path's grants, or 404. */
import { preflightHandler } from '../../shared/platform/http/preflight.ts';
import * as oauthRoutes from '../../shared/oauth/routes.ts';

export const handler = preflightHandler('oauth', Object.values(oauthRoutes));
