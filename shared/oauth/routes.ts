/**
 * The OAuth 2.1 authorization server of the deployment's MCP endpoint (issuer: the deployment's origin): dynamic
 * client registration, the authorization endpoint and its pages, the token and revocation endpoints, and the two
 * discovery documents at the host's root. Every route authenticates on its own terms (`auth: 'none'` for the
 * route wiring): clients at the token and revocation endpoints, people by the pages' sign-in.
 */
import type { RouteDef } from '../platform/http/route-def.ts';
import {
  authorizationForm,
  authorizationQuery,
  authorizationServerMetadataDocument,
  clientRegistrationRequest,
  clientRegistrationResponse,
  htmlPage,
  protectedResourceMetadataDocument,
  revocationRequest,
  tokenRequest,
  tokenResponse,
} from './oauth.schemas.ts';

export const registerOAuthClient = {
  face: 'oauth',
  name: 'oauth-register',
  method: 'POST',
  path: '/api/v1/oauth/register',
  handler: 'functions/oauth/register.ts',
  auth: 'none',
  group: 'oauth',
  table: 'readWrite',
  body: clientRegistrationRequest,
  status: 201,
  response: clientRegistrationResponse,
  summary: 'Register an OAuth client (RFC 7591): public, or confidential with a secret shown in this answer only.',
} as const satisfies RouteDef;

export const authorizeOAuth = {
  face: 'oauth',
  name: 'oauth-authorize',
  method: 'GET',
  path: '/api/v1/oauth/authorize',
  handler: 'functions/oauth/authorize.ts',
  auth: 'none',
  group: 'oauth',
  table: 'read',
  query: authorizationQuery,
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  summary: 'The authorization endpoint: the sign-in or consent page, or an error page (never a redirect: only the consent form redirects).',
} as const satisfies RouteDef;

export const submitOAuthAuthorization = {
  face: 'oauth',
  name: 'oauth-authorize-form',
  method: 'POST',
  path: '/api/v1/oauth/authorize',
  handler: 'functions/oauth/authorize-form.ts',
  auth: 'none',
  group: 'oauth',
  table: 'readWrite',
  body: authorizationForm,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  contentType: 'text/html',
  response: htmlPage,
  redirects: true,
  summary: "The authorization pages' forms: sign in, use another account, approve (a redirect with the code) or deny.",
} as const satisfies RouteDef;

export const issueOAuthToken = {
  face: 'oauth',
  name: 'oauth-token',
  method: 'POST',
  path: '/api/v1/oauth/token',
  handler: 'functions/oauth/token.ts',
  auth: 'none',
  group: 'oauth',
  table: 'readWrite',
  body: tokenRequest,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  response: tokenResponse,
  summary: 'The token endpoint: authorization_code (PKCE S256) and refresh_token (rotated) grants.',
} as const satisfies RouteDef;

export const revokeOAuthToken = {
  face: 'oauth',
  name: 'oauth-revoke',
  method: 'POST',
  path: '/api/v1/oauth/revoke',
  handler: 'functions/oauth/revoke.ts',
  auth: 'none',
  group: 'oauth',
  table: 'readWrite',
  body: revocationRequest,
  bodyType: 'application/x-www-form-urlencoded',
  status: 200,
  response: null,
  summary: 'Revoke an access token, or a refresh token and its whole grant (RFC 7009); an unknown token is answered alike.',
} as const satisfies RouteDef;

export const authorizationServerMetadata = {
  face: 'oauth',
  name: 'oauth-authorization-server-metadata',
  method: 'GET',
  path: '/.well-known/oauth-authorization-server',
  handler: 'functions/oauth/authorization-server-metadata.ts',
  auth: 'none',
  group: 'oauth',
  table: 'none',
  status: 200,
  response: authorizationServerMetadataDocument,
  etag: true,
  summary: "The authorization server's metadata (RFC 8414).",
} as const satisfies RouteDef;

export const protectedResourceMetadata = {
  face: 'oauth',
  name: 'oauth-protected-resource-metadata',
  method: 'GET',
  path: '/.well-known/oauth-protected-resource/api/mcp',
  handler: 'functions/oauth/protected-resource-metadata.ts',
  auth: 'none',
  group: 'oauth',
  table: 'none',
  status: 200,
  response: protectedResourceMetadataDocument,
  etag: true,
  summary: "The MCP endpoint's protected resource metadata (RFC 9728): its resource, authorization server and scopes.",
} as const satisfies RouteDef;
