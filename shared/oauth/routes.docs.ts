/** The API reference's entries of the oauth routes (`shared/oauth/routes.ts`), read only by the OpenAPI document's builder. */
import { redirectUri, authorizationRequest } from '../platform/http/reference-examples.ts';
import { exampleIds } from '../platform/http/example-ids.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const oauthDocs = {
  authorizationServerMetadata: {
    description:
      "The authorization server's metadata (RFC 8414), at the host's root: where an MCP client finds the authorization, token, registration and revocation endpoints, the scopes, the grants (`authorization_code` with PKCE S256, `refresh_token`) and the client authentication methods. Public and cacheable: it has an `ETag`, and a request whose `If-None-Match` names it gets 304.",
    example: {},
  },
  protectedResourceMetadata: {
    description:
      "The MCP endpoint's protected resource metadata (RFC 9728): the resource identifier tokens are issued for, its authorization server and the scopes it takes. A 401 of the MCP endpoint points here in its `WWW-Authenticate` header, so a client can discover how to get a token. Public and cacheable (`ETag`, 304).",
    example: {},
  },
  registerOAuthClient: {
    description:
      'Dynamic client registration (RFC 7591). A public client (`token_endpoint_auth_method: none`, as native and browser MCP clients are) gets a `client_id`; a confidential one also a `client_secret`, shown in this answer only and stored hashed. `redirect_uris` must be https URLs, or http to a loopback address. No credentials are needed: registration alone grants nothing until a person approves the client.',
    example: {
      body: {
        client_name: 'Research agent',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    },
    errors: [
      {
        status: 400,
        code: 'invalid_redirect_uri',
        when: 'A redirect URI is missing, not absolute (scheme://host/…), http to a host other than a loopback address, or has a fragment, a user name, a wildcard or a backslash.',
      },
      { status: 400, code: 'invalid_client_metadata', when: 'Another field of the metadata is malformed or names something this server does not support.' },
    ],
  },
  authorizeOAuth: {
    description:
      "The authorization endpoint, opened in the person's browser. It checks the request (client, redirect URI, PKCE S256 challenge, `resource` if given) and shows the sign-in page, or the consent page to a person signed in, where they choose a merchant and the scopes to grant. A bad request (unknown client, unregistered redirect URI, `response_type`, PKCE or `resource`) gets an error page (400) naming the client, the problem and its RFC 6749 error code, and never a redirect: nothing goes back to the client's redirect URI before the person has consented (RFC 9700 §4.11.2).",
    example: { query: authorizationRequest },
  },
  submitOAuthAuthorization: {
    description:
      "The forms of the authorization pages, posted by the browser: `action=sign_in` (e-mail and password, the dashboard's; answered 303 back to the authorization request, signed in), `sign_out`, and `consent` (`decision=approve` with `merchant_id` and `granted_scopes`, answered 303 to the client's redirect URI with the `code`; `deny`: with `error=access_denied`). A form posted from another origin, a consent without the page's `csrf_token`, or a form whose authorization request the GET would refuse, is refused with a page. Wrong credentials and bad choices answer the page again, saying what to fix.",
    example: {
      body: { ...authorizationRequest, action: 'sign_in', email: exampleIds.ownerEmail, password: 'a long enough password' },
      status: 303,
    },
  },
  issueOAuthToken: {
    description:
      'The token endpoint (RFC 6749 §3.2). `grant_type=authorization_code` redeems a code once, with the `code_verifier` of its PKCE challenge and the same `redirect_uri`; `grant_type=refresh_token` rotates: the refresh token used stops working and a new one is answered, and using an old one again revokes the whole grant. Access tokens (`mor_oat_…`) last an hour and are sent to the MCP endpoint as `Authorization: Bearer`. A confidential client authenticates with HTTP Basic or `client_secret` in the form.',
    example: { body: { grant_type: 'refresh_token', refresh_token: exampleIds.oauthRefreshToken, client_id: exampleIds.oauthClientId } },
    errors: [
      {
        status: 400,
        code: 'invalid_grant',
        when: 'The code or refresh token is unknown, expired, already used, revoked, or was issued to another client or redirect URI.',
      },
      { status: 400, code: 'unsupported_grant_type', when: '`grant_type` is neither `authorization_code` nor `refresh_token`.' },
      { status: 401, code: 'invalid_client', when: 'The client is unknown, or a confidential client sent no or a wrong secret.' },
    ],
  },
  revokeOAuthToken: {
    description:
      'Token revocation (RFC 7009): an access token stops working at once; a refresh token revokes its whole grant (every access and refresh token issued from that consent). An unknown or already revoked token is answered 200 alike, so tokens cannot be probed. Public clients name themselves with `client_id`; confidential ones authenticate as at the token endpoint.',
    example: { body: { token: exampleIds.oauthAccessTokenToRevoke, token_type_hint: 'access_token', client_id: exampleIds.oauthClientId } },
    errors: [{ status: 401, code: 'invalid_client', when: 'The client is unknown, or a confidential client sent no or a wrong secret.' }],
  },
} satisfies ModuleDocs<typeof routes>;
