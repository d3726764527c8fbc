/**
 * The MCP server cards at the host's root: any origin may read them, they are cached and revalidated by ETag, and
 * they say where the endpoint is and which protocol versions it speaks.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { checkContract } from '../../support/contract.ts';
import { mcpUrl, origin } from '../support.ts';

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${origin()}${path}`, { headers });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (res.status === 200) checkContract('GET', path.replace(/^\/api/, ''), res.status, json, text, res.headers.get('content-type'), res.headers);
  return { status: res.status, headers: res.headers, json, text };
}

describe.each([
  ['/.well-known/mcp/server-card.json', 'the server card'],
  ['/.well-known/mcp.json', 'the legacy server card'],
])('%s (%s)', (path) => {
  it('answers any origin, with a strong ETag and a public max-age, and 304 without a body on a matching If-None-Match', async () => {
    const res = await get(path, { origin: 'https://registry.example' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await get(path, { 'if-none-match': ifNoneMatch });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('access-control-allow-origin')).toBe('*');
    }
    expect((await get(path, { 'if-none-match': '"stale"' })).status).toBe(200);
  });
});

describe('the server card', () => {
  it("names the server in reverse-DNS, describes it in at most 100 characters, and points at this deployment's endpoint", async () => {
    const { json } = await get('/.well-known/mcp/server-card.json');
    expect(json).toEqual({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
      name: 'localhost/mcp',
      version: '1.0.0',
      title: 'Payments platform (merchant of record)',
      description: expect.any(String),
      websiteUrl: `${origin()}/docs/mcp`,
      remotes: [{ type: 'streamable-http', url: mcpUrl(), supportedProtocolVersions: [...SUPPORTED_PROTOCOL_VERSIONS] }],
    });
    expect(json.description.length).toBeLessThanOrEqual(100);
  });
});

describe('the legacy server card', () => {
  it('keeps the SEP-1649 draft shape beside the current card', async () => {
    const { json } = await get('/.well-known/mcp.json');
    expect(json).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'localhost/mcp', version: '1.0.0' },
      transport: { type: 'streamable-http', endpoint: '/api/mcp', url: mcpUrl() },
      capabilities: { tools: { listChanged: false } },
      authentication: { required: true, schemes: ['oauth2', 'bearer'] },
      tools: 'dynamic',
    });
  });
});
