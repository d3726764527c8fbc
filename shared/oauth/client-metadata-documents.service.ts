/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client that has not registered
 * names itself by the https URL of a JSON document describing it, which the authorization server fetches.
 *
 * The fetch goes through the platform's SSRF guard (`guardedRequest` of shared/platform/net/transport.ts): https only,
 * public addresses only (checked again on the address dialled), no redirect followed, at most 5 KB read within 5
 * seconds. Only where the local stack allows loopback targets (`WEBHOOK_ALLOW_LOOPBACK=1`, never deployed) may it
 * be `http://127.0.0.1:<port>/…` (or `[::1]`, `localhost`), as for webhooks.
 *
 * The document must be a JSON object whose `client_id` is exactly the URL, with `redirect_uris` (each a valid
 * redirect URI); it describes a public client (`token_endpoint_auth_method` `none` or absent, no secret). A
 * document that passes is kept for 5 minutes in the function's memory.
 */
import * as v from 'valibot';
import { config } from '../platform/config.ts';
import { isJson } from '../platform/http/request-middleware.ts';
import type { HostLookup } from '../platform/net/url-guard.ts';
import { guardedRequest } from '../platform/net/transport.ts';
import {
  METADATA_DOCUMENT_CACHE_SECONDS,
  METADATA_DOCUMENT_MAX_BYTES,
  METADATA_DOCUMENT_TIMEOUT_MS,
  metadataDocumentUrlProblem,
  redirectUriProblem,
  grantTypes as supportedGrantTypes,
  type GrantType,
} from './oauth.rules.ts';

/** What the authorization server takes from a metadata document. */
export interface MetadataDocumentClient {
  id: string;
  name: string | null;
  redirectUris: string[];
  grantTypes: GrantType[];
}

export type MetadataDocumentResult = { client: MetadataDocumentClient } | { problem: string };

/** The document's fields we read; others are ignored. */
const documentSchema = v.looseObject({
  client_id: v.string(),
  redirect_uris: v.pipe(v.array(v.string()), v.minLength(1)),
  client_name: v.optional(v.pipe(v.string(), v.maxCodePoints(200))),
  token_endpoint_auth_method: v.optional(v.string()),
  grant_types: v.optional(v.array(v.string())),
  response_types: v.optional(v.array(v.string())),
  client_secret: v.optional(v.unknown()),
});

const cache = new Map<string, { client: MetadataDocumentClient; until: number }>();
/** The most documents kept at once (the oldest is dropped first). */
const CACHE_ENTRIES = 200;

export interface FetchOptions {
  /** Defaults to the deployment's setting (`config.webhookAllowLoopback`). */
  allowLoopback?: boolean;
  lookup?: HostLookup;
  now?: Date;
}

/**
 * The client a metadata document URL describes, or the problem that keeps it from being used (said so a person
 * can read it). A document fetched in the last 5 minutes is not fetched again.
 */
export async function clientOfMetadataDocument(clientId: string, opts: FetchOptions = {}): Promise<MetadataDocumentResult> {
  const now = (opts.now ?? new Date()).getTime();
  const cached = cache.get(clientId);
  if (cached && cached.until > now) return { client: cached.client };
  const allowLoopback = opts.allowLoopback ?? config.webhookAllowLoopback;
  const urlProblem = metadataDocumentUrlProblem(clientId, allowLoopback);
  if (urlProblem) return { problem: `The app's client_id URL ${urlProblem}.` };
  const host = new URL(clientId).host;
  const fetched = await guardedRequest({
    method: 'GET',
    url: clientId,
    headers: { accept: 'application/json', 'user-agent': 'mor-oauth-authorization-server' },
    timeoutMs: METADATA_DOCUMENT_TIMEOUT_MS,
    allowLoopback,
    // One byte past the limit tells a document of exactly the limit from a longer one.
    maxBodyBytes: METADATA_DOCUMENT_MAX_BYTES + 1,
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  });
  const unusable = (why: string) => ({ problem: `The app's metadata document at ${host} cannot be used: ${why}.` });
  if (fetched.outcome === 'forbidden') return unusable('its address is not a public internet address');
  if (fetched.outcome === 'timeout') return unusable(`it did not arrive within ${METADATA_DOCUMENT_TIMEOUT_MS / 1000} seconds`);
  if (fetched.outcome === 'network_error') return unusable('it could not be fetched');
  if (fetched.status !== 200) return unusable(`its server answered ${fetched.status}, not 200`);
  if (fetched.body.length > METADATA_DOCUMENT_MAX_BYTES) return unusable(`it is larger than ${METADATA_DOCUMENT_MAX_BYTES} bytes`);
  if (!isJson(String(fetched.headers['content-type'] ?? ''))) return unusable('it is not application/json');
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fetched.body));
  } catch {
    return unusable('it is not valid JSON');
  }
  const parsed = v.safeParse(documentSchema, json);
  if (!parsed.success) return unusable(`${v.getDotPath(parsed.issues[0]) ?? 'the document'} is missing or not valid`);
  const doc = parsed.output;
  if (doc.client_id !== clientId) return unusable('its client_id is not the URL it was fetched from');
  if (doc.client_secret !== undefined || (doc.token_endpoint_auth_method ?? 'none') !== 'none') {
    return unusable('only public clients (token_endpoint_auth_method "none", no secret) may be described by a metadata document');
  }
  const badUri = doc.redirect_uris.find((uri) => redirectUriProblem(uri) !== null);
  if (badUri !== undefined) return unusable(`one of its redirect_uris ${redirectUriProblem(badUri)}`);
  const grants = doc.grant_types ?? ['authorization_code'];
  if (!grants.includes('authorization_code')) return unusable('its grant_types leave out authorization_code');
  if (doc.response_types && !doc.response_types.includes('code')) return unusable('its response_types leave out code');
  const client: MetadataDocumentClient = {
    id: clientId,
    name: doc.client_name?.trim() || null,
    redirectUris: doc.redirect_uris,
    grantTypes: supportedGrantTypes.filter((g) => grants.includes(g)),
  };
  if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(clientId, { client, until: now + METADATA_DOCUMENT_CACHE_SECONDS * 1000 });
  return { client };
}
