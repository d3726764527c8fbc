/**
 * Public discovery documents (the MCP server cards; OAuth metadata alike): JSON any origin may read
 * (`Access-Control-Allow-Origin: *`, no credentials), cacheable (`Cache-Control: public`) and revalidated cheaply: a
 * strong `ETag` of the exact bytes sent, and 304 without a body for a request whose `If-None-Match` names it.
 */
import { createHash } from 'node:crypto';
import type { Reply } from './types.ts';

/** How long a client or cache may keep a discovery document before revalidating it. */
export const DISCOVERY_MAX_AGE_SECONDS = 3600;

/** The strong ETag of a JSON body: a hash of the bytes `route()` sends (`JSON.stringify` of the document). */
export const etagOf = (document: object): string => `"${createHash('sha256').update(JSON.stringify(document)).digest('base64url').slice(0, 32)}"`;

/** Whether an `If-None-Match` header names `etag` (or `*`); weak forms compare equal, as RFC 9110 has it for GET. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === etag;
  });
}

/** The reply of a discovery document: 200 with it, or 304 when the client's copy is current. */
export function discoveryReply(document: object, etag: string, ifNoneMatch: string | undefined): Reply {
  const headers = { etag, 'cache-control': `public, max-age=${DISCOVERY_MAX_AGE_SECONDS}`, 'access-control-allow-origin': '*' };
  return matchesEtag(ifNoneMatch, etag) ? { status: 304, headers } : { status: 200, headers, body: document };
}
