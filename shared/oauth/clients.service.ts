/**
 * OAuth clients: dynamic registration (RFC 7591), finding the client an authorization request names (registered,
 * or described by a Client ID Metadata Document), and authenticating a client at the token and revocation
 * endpoints (RFC 6749 §2.3: `none`, `client_secret_basic`, `client_secret_post`).
 */
import * as v from 'valibot';
import { config } from '../platform/config.ts';
import { safeEqual } from '../domain/secrets.ts';
import { beginAttempt, ipThrottleKey, type ThrottleRule, uncountedLocalSource } from '../people/index.ts';
import { clientOfMetadataDocument, type FetchOptions } from './client-metadata-documents.service.ts';
import type { OAuthClient } from './client.entity.ts';
import { getClient, putNewClient } from './clients.repository.ts';
import { invalidClient, oauthRefusal } from './oauth-errors.ts';
import {
  clientAuthMethods,
  grantTypes,
  isClientId,
  isMetadataDocumentClientId,
  MAX_REDIRECT_URIS,
  MAX_URI_LENGTH,
  newClientId,
  newClientSecret,
  redirectUriProblem,
  verifierOf,
  type ClientAuthMethod,
  type GrantType,
} from './oauth.rules.ts';

/** Registrations per source address: an hour's window, every registration counted. */
export const registrationLimit = { scope: 'oauth-register-ip', limit: 100, windowSeconds: 3600 } as const satisfies ThrottleRule;

/** The RFC 7591 metadata we read; the rest is ignored, as §2 asks. */
const registrationFields = v.looseObject({
  token_endpoint_auth_method: v.optional(v.picklist(clientAuthMethods, `must be one of ${clientAuthMethods.join(', ')}`)),
  grant_types: v.optional(
    v.pipe(
      v.array(v.picklist(grantTypes, `may hold only ${grantTypes.join(' and ')}`)),
      v.check((g) => g.includes('authorization_code'), 'must include authorization_code'),
    ),
  ),
  response_types: v.optional(v.pipe(v.array(v.literal('code', 'may hold only code')), v.minLength(1, 'must include code'))),
  client_name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxCodePoints(200, 'must be at most 200 characters'))),
  client_uri: v.optional(
    v.pipe(
      v.string(),
      v.maxCodePoints(MAX_URI_LENGTH),
      v.check((u) => URL.canParse(u) && new URL(u).protocol === 'https:', 'must be an https URL'),
    ),
  ),
});

const metadataError = (description: string) => oauthRefusal('invalid_client_metadata', description);
const redirectError = (description: string) => oauthRefusal('invalid_redirect_uri', description);

/** The redirect URIs of a registration, each valid (`redirectUriProblem`), or the RFC 7591 refusal. */
function redirectUrisOf(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.some((u) => typeof u !== 'string')) {
    throw redirectError('redirect_uris: send at least one redirect URI, as a list of strings.');
  }
  if (value.length > MAX_REDIRECT_URIS) throw redirectError(`redirect_uris: register at most ${MAX_REDIRECT_URIS} redirect URIs.`);
  for (const [i, uri] of (value as string[]).entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) throw redirectError(`redirect_uris[${i}] ${problem}.`);
  }
  return [...new Set(value as string[])];
}

/**
 * Register a client (RFC 7591 §3): 201 with its `client_id` and, for a confidential client
 * (`client_secret_basic`, the RFC's default, or `client_secret_post`), its `client_secret`, shown in this answer
 * only (a hash is stored). Registrations are counted per source address (`registrationLimit`; past it 429).
 */
export async function registerClient(body: Record<string, unknown>, sourceIp: string | undefined, now = new Date()) {
  const redirectUris = redirectUrisOf(body.redirect_uris);
  const parsed = v.safeParse(registrationFields, body);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw metadataError(`${v.getDotPath(issue) ?? 'the metadata'}: ${issue.message.replace(/ but received .*$/s, '')}.`);
  }
  const fields = parsed.output;
  if (!uncountedLocalSource(sourceIp)) await beginAttempt([{ rule: registrationLimit, key: ipThrottleKey(sourceIp) }], now);
  const authMethod: ClientAuthMethod = fields.token_endpoint_auth_method ?? 'client_secret_basic';
  const secret = authMethod === 'none' ? null : newClientSecret();
  const client: OAuthClient = {
    id: newClientId(),
    name: fields.client_name ?? null,
    clientUri: fields.client_uri ?? null,
    redirectUris,
    authMethod,
    secretVerifier: secret ? verifierOf(secret) : null,
    grantTypes: grantTypes.filter((g) => (fields.grant_types ?? ['authorization_code']).includes(g)),
    mode: config.mode,
    createdAt: now.toISOString(),
  };
  await putNewClient(client);
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: client.authMethod,
    grant_types: client.grantTypes,
    response_types: ['code'],
    ...(client.name ? { client_name: client.name } : {}),
    ...(client.clientUri ? { client_uri: client.clientUri } : {}),
  };
}

/** A client as the authorization endpoint sees it: registered, or described by its metadata document. */
export interface AuthorizingClient {
  id: string;
  name: string | null;
  redirectUris: string[];
  grantTypes: GrantType[];
  /** Its `client_id` is the URL of its metadata document. */
  fromMetadataDocument: boolean;
}

/**
 * The client `clientId` names, or why there is none (said so a person can read it): a registered client of this
 * deployment, or the client a metadata document URL describes.
 */
export async function clientForAuthorization(clientId: string, opts: FetchOptions = {}): Promise<{ client: AuthorizingClient } | { problem: string }> {
  if (isMetadataDocumentClientId(clientId)) {
    const found = await clientOfMetadataDocument(clientId, opts);
    return 'problem' in found ? found : { client: { ...found.client, fromMetadataDocument: true } };
  }
  const client = isClientId(clientId) ? await getClient(clientId) : null;
  if (!client || client.mode !== config.mode) return { problem: 'The app that sent you here is not registered with this platform (unknown client_id).' };
  return { client: { id: client.id, name: client.name, redirectUris: client.redirectUris, grantTypes: client.grantTypes, fromMetadataDocument: false } };
}

/** What a token or revocation request says of its client: `Authorization: Basic` and the body's `client_id` / `client_secret`. */
export interface ClientCredentials {
  authorization: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
}

/** The client id and secret of `Authorization: Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1), or null. */
function basicCredentials(authorization: string | undefined): { id: string; secret: string } | null {
  const encoded = /^Basic ([A-Za-z0-9+/]+=*)$/i.exec(authorization ?? '')?.[1];
  if (!encoded) return null;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return { id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')), secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')) };
  } catch {
    return null;
  }
}

/**
 * The client calling the token or revocation endpoint, authenticated the way it registered: a public client
 * (`none`, and every metadata-document client) names itself with `client_id` and sends no secret; a confidential
 * one sends its secret by HTTP Basic (`client_secret_basic`) or in the body (`client_secret_post`). Anything else —
 * no client named, an unknown one, a wrong secret, another method than the registered one, two methods at once — is
 * 401 `invalid_client`.
 */
export async function authenticateClient(credentials: ClientCredentials): Promise<{ id: string; grantTypes: GrantType[] }> {
  const basic = basicCredentials(credentials.authorization);
  const usedBasic = credentials.authorization !== undefined && /^Basic /i.test(credentials.authorization);
  if (usedBasic && !basic) throw invalidClient('The Authorization header is not valid HTTP Basic client credentials.', true);
  if (basic && credentials.clientSecret !== undefined) throw invalidClient('Send the client secret one way only: HTTP Basic or client_secret.', true);
  if (basic && credentials.clientId !== undefined && credentials.clientId !== basic.id) {
    throw invalidClient('client_id differs from the client of the Authorization header.', true);
  }
  const clientId = basic?.id ?? credentials.clientId;
  if (!clientId) throw invalidClient('Name the client: send client_id (or HTTP Basic client credentials).', false);
  if (isMetadataDocumentClientId(clientId)) {
    if (basic || credentials.clientSecret !== undefined) throw invalidClient('A client with a metadata document is public: it sends no secret.', usedBasic);
    return { id: clientId, grantTypes: [...grantTypes] };
  }
  const client = isClientId(clientId) ? await getClient(clientId) : null;
  if (!client || client.mode !== config.mode) throw invalidClient('The client is unknown: register it first.', usedBasic);
  const presented: ClientAuthMethod = basic ? 'client_secret_basic' : credentials.clientSecret !== undefined ? 'client_secret_post' : 'none';
  if (presented !== client.authMethod) {
    throw invalidClient(`This client authenticates with ${client.authMethod}${client.authMethod === 'none' ? ' (no secret)' : ''}.`, usedBasic);
  }
  const secret = basic?.secret ?? credentials.clientSecret;
  if (client.secretVerifier && !(secret !== undefined && safeEqual(verifierOf(secret), client.secretVerifier))) {
    throw invalidClient('The client secret is wrong.', usedBasic);
  }
  return { id: client.id, grantTypes: client.grantTypes };
}
