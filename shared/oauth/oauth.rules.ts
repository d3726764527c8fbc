/**
 * The pure rules of the OAuth 2.1 authorization server: PKCE (RFC 7636, `S256` only), redirect URIs (exact match;
 * `https://`, or plain `http://` to a loopback host, RFC 8252 §7.3), the secrets it issues and how they are
 * recognized, scopes, lifetimes, and the discovery documents (RFC 8414, RFC 9728). No I/O.
 */
import { createHash } from 'node:crypto';
import { agentScopes, MCP_PATH, type AgentScope } from '../domain/agent-scopes.ts';
import type { Mode } from '../domain/deployments.ts';
import { randomHex, sha256Hex } from '../domain/secrets.ts';

/** How long an authorization code may be exchanged (RFC 6749 §4.1.2 recommends at most 10 minutes; we allow 60 s). */
export const CODE_TTL_SECONDS = 60;
/** How long an access token is accepted. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/**
 * How long a token family lives from the consent that started it: its refresh tokens never outlive it, however
 * often they are rotated (the person consents again after 30 days).
 */
export const FAMILY_TTL_SECONDS = 30 * 86_400;
/** How long records stay in the table after they expire (an expired token is then still told apart from an unknown one). */
export const RETENTION_AFTER_EXPIRY_SECONDS = 7 * 86_400;

/** The grant types a client may register and use. */
export const grantTypes = ['authorization_code', 'refresh_token'] as const;
export type GrantType = (typeof grantTypes)[number];
/** How a client authenticates at the token and revocation endpoints. */
export const clientAuthMethods = ['none', 'client_secret_basic', 'client_secret_post'] as const;
export type ClientAuthMethod = (typeof clientAuthMethods)[number];

// --- PKCE (RFC 7636) ---

/** A `code_challenge` of method S256: the base64url (no padding) SHA-256 of the verifier, so exactly 43 characters. */
export const isS256Challenge = (challenge: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(challenge);

/** A `code_verifier`: 43 to 128 characters of `[A-Za-z0-9-._~]` (RFC 7636 §4.1). */
export const isCodeVerifier = (verifier: string): boolean => /^[A-Za-z0-9._~-]{43,128}$/.test(verifier);

/** `BASE64URL(SHA256(ASCII(code_verifier)))` (RFC 7636 §4.2). */
export const s256ChallengeOf = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** Whether `verifier` is well formed and its S256 challenge is `challenge` (RFC 7636 §4.6). */
export const pkceMatches = (verifier: string, challenge: string): boolean => isCodeVerifier(verifier) && s256ChallengeOf(verifier) === challenge;

// --- Redirect URIs ---

/** The longest redirect URI (and client id URL) accepted. */
export const MAX_URI_LENGTH = 2048;
/** The most redirect URIs one client may register. */
export const MAX_REDIRECT_URIS = 10;

/** Hosts (as `URL.hostname` spells them) of the loopback interface, where plain `http://` is allowed (RFC 8252 §7.3, §8.3). */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Whether a URL's `hostname` is the loopback interface's. */
export const isLoopbackHostname = (hostname: string): boolean => LOOPBACK_HOSTS.has(hostname);

/** The scheme and `//` that begin an absolute URL with a host, as written. */
const SCHEME_AND_AUTHORITY = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Why `uri` cannot be a redirect URI, or null when it can: an absolute `https://` URL, or an `http://` URL to
 * 127.0.0.1, [::1] or localhost (a native app's loopback listener); no fragment (RFC 6749 §3.1.2), no user name
 * or password, no wildcard, no backslash, no whitespace or control characters, at most 2048 characters. It is
 * judged as written as well as as parsed, since parsers differ where the writing is loose: `https:host/cb` (no
 * `//`), `https://a\@b/` (a backslash a browser reads as `/`, another parser as part of a user name) and
 * `https://*.host/` (a pattern, not an address) are all refused (OAuth 2.1 §2.3.1). The URI is kept as written:
 * it is matched exactly, character for character, at the authorization and token endpoints.
 */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length === 0) return 'is empty';
  if (uri.length > MAX_URI_LENGTH) return `is longer than ${MAX_URI_LENGTH} characters`;
  if (/[\s\u0000-\u001f\u007f]/.test(uri)) return 'contains whitespace or control characters';
  if (uri.includes('\\')) return 'must not contain a backslash';
  if (!URL.canParse(uri)) return 'is not an absolute URL (scheme://host/…)';
  if (!['https:', 'http:'].includes(new URL(uri).protocol)) return 'must use https (plain http only to 127.0.0.1, [::1] or localhost)';
  if (!SCHEME_AND_AUTHORITY.test(uri)) return 'is not an absolute URL (scheme://host/…)';
  const authority = uri.replace(SCHEME_AND_AUTHORITY, '').split(/[/?#]/, 1)[0]!;
  // `https:///host/…` parses to host, but as written it has none; an empty port or port 0 names no server either.
  if (authority === '') return 'has no host';
  const port = /:(\d*)$/.exec(authority)?.[1];
  if (port !== undefined && !(Number(port) > 0)) return 'has an empty port or port 0';
  const url = new URL(uri);
  if (url.hash !== '' || uri.includes('#')) return 'must not have a fragment (#…)';
  if (url.username !== '' || url.password !== '' || authority.includes('@')) return 'must not contain a user name or password';
  if (authority.includes('*')) return 'must not contain a wildcard (*): register each address exactly';
  if (url.protocol === 'https:') return url.hostname === '' ? 'has no host' : null;
  // Plain http to loopback, written as one of its three names: `127.1` or `0x7f000001` parse to 127.0.0.1 but are
  // not how the address is registered.
  const writtenHost = authority.replace(/:\d*$/, '').toLowerCase();
  if (url.protocol === 'http:') {
    return isLoopbackHostname(url.hostname) && ['127.0.0.1', '[::1]', 'localhost'].includes(writtenHost)
      ? null
      : 'must use https (plain http only to 127.0.0.1, [::1] or localhost)';
  }
  return 'must use https (plain http only to 127.0.0.1, [::1] or localhost)';
}

/** Whether `uri` is one of `registered`, exactly (RFC 6749 §3.1.2.3, OAuth 2.1 §2.3.1: simple string comparison). */
export const redirectUriRegistered = (uri: string, registered: readonly string[]): boolean => registered.includes(uri);

/** The origin a redirect URI's browser navigation goes to (for the consent page's CSP and its "redirects to" line). */
export const redirectOriginOf = (uri: string): string => new URL(uri).origin;

// --- Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document) ---

/**
 * Whether a `client_id` names a Client ID Metadata Document rather than a registered client: an https URL (or,
 * where the local stack allows loopback fetches, an http URL to a loopback host).
 */
export const isMetadataDocumentClientId = (clientId: string): boolean => /^https?:\/\//i.test(clientId);

/**
 * Why a metadata document's URL cannot be a `client_id`, or null: https (http only to a loopback host when
 * `allowLoopback`), a path other than `/`, no fragment, no user name or password, no `.` or `..` segment, at most
 * 2048 characters. Where it may be fetched from (public addresses only) is the SSRF guard's to say.
 */
export function metadataDocumentUrlProblem(clientId: string, allowLoopback: boolean): string | null {
  if (clientId.length > MAX_URI_LENGTH) return `is longer than ${MAX_URI_LENGTH} characters`;
  if (/[\s\u0000-\u001f\u007f]/.test(clientId) || !URL.canParse(clientId)) return 'is not a valid URL';
  const url = new URL(clientId);
  const loopback = allowLoopback && isLoopbackHostname(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return 'must use https';
  if (url.hash !== '' || clientId.includes('#')) return 'must not have a fragment';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  if (url.pathname === '/') return 'must have a path';
  // As written, before URL parsing resolves them away.
  const path = clientId.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').split('?')[0]!;
  if (/(^|\/)\.\.?(\/|$)/.test(path)) return 'must not have . or .. path segments';
  return null;
}

/** The largest metadata document read (the draft suggests 5 KB). */
export const METADATA_DOCUMENT_MAX_BYTES = 5 * 1024;
/** How long fetching a metadata document may take. */
export const METADATA_DOCUMENT_TIMEOUT_MS = 5_000;
/** How long a fetched metadata document is reused. */
export const METADATA_DOCUMENT_CACHE_SECONDS = 300;

// --- Secrets and identifiers ---

/**
 * What the server issues, each recognizable by its prefix. Tokens carry this deployment's mode (`test` on
 * sandbox, `live` on live), like merchant keys, and the id of their family:
 * - client id `oac_<32 hex>` (public), client secret `mor_ocs_<64 hex>`;
 * - authorization code `mor_ocd_<64 hex>`;
 * - access token `mor_oat_<mode>_<family id>_<64 hex>`, refresh token `mor_ort_<mode>_<family id>_<64 hex>`,
 *   the family id being `otf_<24 hex>`.
 * Only hashes of the secrets are stored.
 */
export const newClientId = (): string => `oac_${randomHex(16)}`;
export const isClientId = (id: string): boolean => /^oac_[0-9a-f]{32}$/.test(id);
export const newClientSecret = (): string => `mor_ocs_${randomHex(32)}`;
export const newAuthorizationCode = (): string => `mor_ocd_${randomHex(32)}`;
export const isAuthorizationCode = (code: string): boolean => /^mor_ocd_[0-9a-f]{64}$/.test(code);
export const newFamilyId = (): string => `otf_${randomHex(12)}`;

export type TokenKind = 'access' | 'refresh';
const tokenPrefix: Record<TokenKind, string> = { access: 'mor_oat', refresh: 'mor_ort' };
const tokenPattern = /^(mor_oat|mor_ort)_(test|live)_(otf_[0-9a-f]{24})_[0-9a-f]{64}$/;

export const newToken = (kind: TokenKind, mode: Mode, familyId: string): string => `${tokenPrefix[kind]}_${mode}_${familyId}_${randomHex(32)}`;

/** What a well-formed token says of itself (its kind, mode and family), or null for anything else. */
export function parseToken(token: string): { kind: TokenKind; mode: Mode; familyId: string } | null {
  const match = tokenPattern.exec(token);
  if (!match) return null;
  return { kind: match[1] === 'mor_oat' ? 'access' : 'refresh', mode: match[2] as Mode, familyId: match[3]! };
}

/** A token's record id (`oat_…` / `ort_…`): what logs and grants name, never the token. */
export const tokenIdOf = (token: string, kind: TokenKind): string =>
  `${kind === 'access' ? 'oat' : 'ort'}_${sha256Hex(`oauth-token-id:${token}`).slice(0, 24)}`;

/** What is stored of a secret (client secret, code, token): its SHA-256. The secrets are 256 random bits. */
export const verifierOf = (secret: string): string => sha256Hex(secret);

// --- Scopes ---

/** Scopes in the platform's order, without repeats. */
export const orderedScopes = (scopes: readonly AgentScope[]): AgentScope[] => agentScopes.filter((s) => scopes.includes(s));

// --- The deployment's endpoints and discovery documents ---

/** Where the authorization server's endpoints are, under the deployment's origin. */
export const OAUTH_PATHS = {
  authorize: '/api/v1/oauth/authorize',
  token: '/api/v1/oauth/token',
  register: '/api/v1/oauth/register',
  revoke: '/api/v1/oauth/revoke',
  authorizationServerMetadata: '/.well-known/oauth-authorization-server',
  protectedResourceMetadata: `/.well-known/oauth-protected-resource${MCP_PATH}`,
} as const;

/** The MCP endpoint of the deployment at `origin`: the one resource its tokens are for (RFC 8707). */
export const mcpResourceOf = (origin: string): string => `${origin}${MCP_PATH}`;

/** The authorization server's metadata (RFC 8414 §2) of the deployment at `origin` (its issuer). */
export const authorizationServerMetadata = (origin: string) => ({
  issuer: origin,
  authorization_endpoint: `${origin}${OAUTH_PATHS.authorize}`,
  token_endpoint: `${origin}${OAUTH_PATHS.token}`,
  registration_endpoint: `${origin}${OAUTH_PATHS.register}`,
  revocation_endpoint: `${origin}${OAUTH_PATHS.revoke}`,
  scopes_supported: [...agentScopes],
  response_types_supported: ['code'],
  response_modes_supported: ['query'],
  grant_types_supported: [...grantTypes],
  token_endpoint_auth_methods_supported: [...clientAuthMethods],
  revocation_endpoint_auth_methods_supported: [...clientAuthMethods],
  code_challenge_methods_supported: ['S256'],
  client_id_metadata_document_supported: true,
  authorization_response_iss_parameter_supported: true,
});

/** The MCP endpoint's protected resource metadata (RFC 9728 §2) of the deployment at `origin`. */
export const protectedResourceMetadata = (origin: string) => ({
  resource: mcpResourceOf(origin),
  authorization_servers: [origin],
  scopes_supported: [...agentScopes],
  bearer_methods_supported: ['header'],
  resource_name: 'Payments platform MCP server',
});
