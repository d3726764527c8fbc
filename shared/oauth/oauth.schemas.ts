/**
 * The OAuth authorization server's requests and answers. Requests are loose (RFC 6749 §3.1 and RFC 7591 §2: a
 * parameter the server does not know is ignored); the services check what they read and refuse with the RFCs'
 * error codes. Answers are strict, as every route's.
 */
import * as v from 'valibot';
import { agentScopes } from '../domain/agent-scopes.ts';
import { named } from '../platform/http/schemas/named.ts';
import { clientAuthMethods, grantTypes } from './oauth.rules.ts';

const optionalText = v.optional(v.string());

/** RFC 7591 §2 client metadata: the fields read (checked by the registration), any others ignored. */
export const clientRegistrationRequest = named(
  'OAuthClientRegistrationRequest',
  v.pipe(
    v.looseObject({
      redirect_uris: v.optional(v.unknown()),
      token_endpoint_auth_method: v.optional(v.unknown()),
      grant_types: v.optional(v.unknown()),
      response_types: v.optional(v.unknown()),
      client_name: v.optional(v.unknown()),
      client_uri: v.optional(v.unknown()),
    }),
    v.description(
      'RFC 7591 client metadata. redirect_uris (required): https URLs, or http to 127.0.0.1, [::1] or localhost. token_endpoint_auth_method: none, client_secret_basic (the default) or client_secret_post. grant_types: authorization_code (required) and refresh_token. response_types: code. client_name, client_uri.',
    ),
  ),
);

/** RFC 7591 §3.2.1: the client as registered; `client_secret` only for a confidential client, in this answer only. */
export const clientRegistrationResponse = named(
  'OAuthClientRegistration',
  v.strictObject({
    client_id: v.pipe(v.string(), v.regex(/^oac_[0-9a-f]{32}$/)),
    client_id_issued_at: v.pipe(v.number(), v.integer()),
    client_secret: v.optional(v.pipe(v.string(), v.regex(/^mor_ocs_[0-9a-f]{64}$/))),
    client_secret_expires_at: v.optional(v.literal(0)),
    redirect_uris: v.pipe(v.array(v.string()), v.minLength(1)),
    token_endpoint_auth_method: v.picklist(clientAuthMethods),
    grant_types: v.array(v.picklist(grantTypes)),
    response_types: v.tuple([v.literal('code')]),
    client_name: v.optional(v.string()),
    client_uri: v.optional(v.string()),
  }),
);

/** The authorization request's parameters (RFC 6749 §4.1.1, RFC 7636 §4.3, RFC 8707 §2). */
const authorizationParameters = {
  client_id: optionalText,
  redirect_uri: optionalText,
  response_type: optionalText,
  code_challenge: optionalText,
  code_challenge_method: optionalText,
  state: optionalText,
  scope: optionalText,
  resource: optionalText,
};

export const authorizationQuery = v.looseObject(authorizationParameters);

/** The forms of the sign-in and consent pages: the authorization request, carried in hidden fields, and the form's own fields. */
export const authorizationForm = v.looseObject({
  ...authorizationParameters,
  action: v.optional(v.unknown()),
  email: v.optional(v.unknown()),
  password: v.optional(v.unknown()),
  csrf_token: v.optional(v.unknown()),
  merchant_id: v.optional(v.unknown()),
  decision: v.optional(v.unknown()),
  granted_scopes: v.optional(v.unknown()),
});

export { htmlPage } from '../platform/http/schemas/common.ts';

/** RFC 6749 §4.1.3 and §6 (form fields). A parameter sent twice is refused (`invalid_request`), as §3.2 asks. */
export const tokenRequest = v.looseObject({
  grant_type: optionalText,
  code: optionalText,
  redirect_uri: optionalText,
  code_verifier: optionalText,
  refresh_token: optionalText,
  resource: optionalText,
  scope: optionalText,
  client_id: optionalText,
  client_secret: optionalText,
});

const scopeList = v.pipe(
  v.string(),
  v.check((s) => s.split(' ').every((x) => (agentScopes as readonly string[]).includes(x)), 'must be a space-separated list of scopes'),
);

/** RFC 6749 §5.1. */
export const tokenResponse = named(
  'OAuthTokenResponse',
  v.strictObject({
    access_token: v.pipe(v.string(), v.regex(/^mor_oat_(test|live)_otf_[0-9a-f]{24}_[0-9a-f]{64}$/)),
    token_type: v.literal('Bearer'),
    expires_in: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3600)),
    refresh_token: v.optional(v.pipe(v.string(), v.regex(/^mor_ort_(test|live)_otf_[0-9a-f]{24}_[0-9a-f]{64}$/))),
    scope: scopeList,
  }),
);

/** RFC 7009 §2.1 (form fields). */
export const revocationRequest = v.looseObject({
  token: optionalText,
  token_type_hint: optionalText,
  client_id: optionalText,
  client_secret: optionalText,
});

const absoluteUrl = v.pipe(v.string(), v.url());

/** RFC 8414 §2. */
export const authorizationServerMetadataDocument = named(
  'OAuthAuthorizationServerMetadata',
  v.strictObject({
    issuer: absoluteUrl,
    authorization_endpoint: absoluteUrl,
    token_endpoint: absoluteUrl,
    registration_endpoint: absoluteUrl,
    revocation_endpoint: absoluteUrl,
    scopes_supported: v.array(v.picklist(agentScopes)),
    response_types_supported: v.tuple([v.literal('code')]),
    response_modes_supported: v.tuple([v.literal('query')]),
    grant_types_supported: v.array(v.picklist(grantTypes)),
    token_endpoint_auth_methods_supported: v.array(v.picklist(clientAuthMethods)),
    revocation_endpoint_auth_methods_supported: v.array(v.picklist(clientAuthMethods)),
    code_challenge_methods_supported: v.tuple([v.literal('S256')]),
    client_id_metadata_document_supported: v.literal(true),
    authorization_response_iss_parameter_supported: v.literal(true),
  }),
);

/** RFC 9728 §2. */
export const protectedResourceMetadataDocument = named(
  'OAuthProtectedResourceMetadata',
  v.strictObject({
    resource: absoluteUrl,
    authorization_servers: v.tuple([absoluteUrl]),
    scopes_supported: v.array(v.picklist(agentScopes)),
    bearer_methods_supported: v.tuple([v.literal('header')]),
    resource_name: v.string(),
  }),
);
