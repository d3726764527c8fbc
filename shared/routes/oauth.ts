/**
 * The OAuth authorization server of the MCP endpoint (`{ error, error_description }` errors): its discovery
 * documents at the host's root, client registration, the authorization endpoint and its pages, token and revocation.
 */
import {
  authorizationServerMetadata,
  protectedResourceMetadata,
  registerOAuthClient,
  authorizeOAuth,
  submitOAuthAuthorization,
  issueOAuthToken,
  revokeOAuthToken,
} from '../oauth/routes.ts';

export {
  authorizationServerMetadata,
  protectedResourceMetadata,
  registerOAuthClient,
  authorizeOAuth,
  submitOAuthAuthorization,
  issueOAuthToken,
  revokeOAuthToken,
};

export const oauthRoutes = {
  authorizationServerMetadata,
  protectedResourceMetadata,
  registerOAuthClient,
  authorizeOAuth,
  submitOAuthAuthorization,
  issueOAuthToken,
  revokeOAuthToken,
};
