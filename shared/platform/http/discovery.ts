/**
 * Public discovery documents (the OAuth metadata, the MCP server cards): JSON any origin may read
 * (`Access-Control-Allow-Origin: *`, no credentials), cacheable for an hour (`Cache-Control: public`) and
 * revalidated cheaply: their routes set `etag`, so `route()` adds a strong `ETag` of the bytes sent and answers 304
 * without a body to a request whose `If-None-Match` holds it (`./etag.ts`).
 */
export const discoveryHeaders = { 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*' } as const;
