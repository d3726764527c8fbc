/** The agent endpoint's pure parts: the user MCP token format, the tool set and its scopes, the docs index, the server cards' facts, the origin rule. */
import { randomUUID } from 'node:crypto';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { nextActions } from '../../../shared/agents/activation-guide.ts';
import { docsSections, headingSlug } from '../../../shared/platform/docs-index.ts';
import { excerptOf } from '../../../shared/agents/docs-search.ts';
import { listedTools, missingScopes } from '../../../shared/agents/mcp.service.ts';
import {
  generateMcpToken,
  isMcpTokenId,
  MCP_TOKEN_MAX_DAYS,
  mcpTokenExpiry,
  mcpTokenHintOf,
  mcpTokenIdOf,
  parseMcpToken,
} from '../../../shared/agents/mcp-tokens.rules.ts';
import { AGENT_DOCS_PAGE, serverCardName } from '../../../shared/agents/server-cards.ts';
import { readDocsPages } from '../../../infra/docs-pages.ts';
import { MCP_PROTOCOL_VERSIONS, SERVER_DESCRIPTION } from '../../../shared/agents/server-info.ts';
import { agentTools } from '../../../shared/agents/tools.ts';
import { agentScopes } from '../../../shared/domain/agent-scopes.ts';
import { activationStepKeys } from '../../../shared/people/activation.rules.ts';
import { agentOriginAllowed } from '../../../shared/platform/http/cors.ts';
import { forbiddenToolName, specToolScopes } from '../../support/agent-tools.ts';
import { AGENT_ERRORS_SECTION } from '../../../shared/platform/http/errors.ts';

describe('user MCP tokens', () => {
  const merchantId = randomUUID();
  const userId = randomUUID();

  it('say their deployment, merchant and person, and nothing else parses as one', () => {
    const token = generateMcpToken('test', merchantId, userId);
    expect(token).toMatch(/^mor_mcp_test_[A-Za-z0-9_-]{86}$/);
    expect(parseMcpToken(token)).toEqual({ mode: 'test', merchantId, userId });
    expect(parseMcpToken(generateMcpToken('live', merchantId, userId))).toMatchObject({ mode: 'live' });
    expect(generateMcpToken('test', merchantId, userId)).not.toBe(token);
    for (const other of [
      'mor_mcp_xxx',
      'mor_mcp_test_',
      `mor_mcp_test_${'A'.repeat(85)}`,
      `mor_mcp_prod_${token.slice(13)}`,
      `${token}A`,
      token.replace('mor_', 'MOR_'),
    ]) {
      expect(parseMcpToken(other), other).toBeNull();
    }
  });

  it('refuse a second spelling of the same bytes (the last character carries spare bits)', () => {
    const token = generateMcpToken('test', merchantId, userId);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(token.at(-1)!);
    const twin = `${token.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(twin.slice(13), 'base64url')).toEqual(Buffer.from(token.slice(13), 'base64url'));
    expect(parseMcpToken(twin)).toBeNull();
  });

  it('have an id, a hint and a lifetime that reveal nothing of the secret', () => {
    const token = generateMcpToken('test', merchantId, userId);
    expect(isMcpTokenId(mcpTokenIdOf(token))).toBe(true);
    expect(mcpTokenIdOf(token)).toBe(mcpTokenIdOf(token));
    expect(mcpTokenHintOf(token)).toBe(`mor_mcp_test_…${token.slice(-4)}`);
    expect(MCP_TOKEN_MAX_DAYS).toBe(7);
    expect(mcpTokenExpiry(new Date('2026-01-01T00:00:00.000Z'), 7)).toBe('2026-01-08T00:00:00.000Z');
    expect(() => generateMcpToken('test', 'not-a-uuid', userId)).toThrow();
  });
});

describe('the tool set', () => {
  it("is exactly the spec's thirteen tools with their scopes, every scope used", () => {
    expect(Object.fromEntries(agentTools.map((t) => [t.name, t.scope]))).toEqual(specToolScopes);
    expect(new Set(agentTools.map((t) => t.scope))).toEqual(new Set(agentScopes));
    expect(agentTools.filter((t) => forbiddenToolName.test(t.name))).toEqual([]);
  });

  it('lists each tool with an object JSON Schema, its scope in the description and _meta, and its annotations', () => {
    for (const t of listedTools()) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.inputSchema, t.name).not.toHaveProperty('$schema');
      expect(t.description, t.name).toMatch(/ Scope: [a-z_]+:[a-z_]+ \(.+\)\.$/);
      expect(t._meta?.scope, t.name).toBe(agentTools.find((a) => a.name === t.name)!.scope);
      expect(Object.keys(t.annotations ?? {}).sort(), t.name).toEqual(['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title']);
      expect(t.annotations?.readOnlyHint && t.annotations.destructiveHint, t.name).toBe(false);
    }
  });

  it("says in the schemas the rules a call is held to: a custom order line's amount over 0, a customization changing something", () => {
    const schemaOf = (name: string) => JSON.stringify(listedTools().find((t) => t.name === name)!.inputSchema);
    expect(schemaOf('create_order')).toMatch(/"unitAmount":\{[^}]*"exclusiveMinimum":0/);
    expect(listedTools().find((t) => t.name === 'update_checkout_customization')!.inputSchema).toMatchObject({ minProperties: 1 });
  });

  it('finds the scopes a message or batch of tool calls lacks (unknown tools need none)', () => {
    const callOf = (name: string) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name } });
    expect(missingScopes(callOf('go_live'), ['merchant:read'])).toEqual(['merchant:go_live']);
    expect(missingScopes(callOf('get_my_merchant'), ['merchant:read'])).toEqual([]);
    expect(missingScopes([callOf('create_order'), callOf('list_products'), callOf('set_checkout_logo')], ['product:read'])).toEqual(['checkout:write']);
    expect(missingScopes(callOf('no_such_tool'), [])).toEqual([]);
    expect(missingScopes({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, [])).toEqual([]);
    expect(missingScopes(undefined, [])).toEqual([]);
  });

  it('says what to do next for every activation step', () => {
    expect(Object.keys(nextActions).sort()).toEqual([...activationStepKeys].sort());
  });
});

describe('the documentation index', () => {
  it('names sections by their GitHub anchors', () => {
    expect(headingSlug('Agent endpoint (MCP)')).toBe('agent-endpoint-mcp');
    expect(headingSlug('MCP errors')).toBe('mcp-errors');
    expect(headingSlug('`GET /merchants/{id}` and [links](https://x)')).toBe('get-merchantsid-and-links');
  });

  it('splits a page at its headings, outside code blocks, numbering repeated anchors, each section under the page title', () => {
    const sections = docsSections(
      { page: 'setup-guide', markdown: '# Doc\nintro\n## Setup\ntext\n```sh\n# not a heading\n```\n### Setup\nmore\n## Setup\nagain\n' },
      7,
    );
    expect(sections.map((s) => [s.id, s.page, s.slug, s.title])).toEqual([
      [7, 'setup-guide', 'doc', 'Doc'],
      [8, 'setup-guide', 'setup', 'Doc › Setup'],
      [9, 'setup-guide', 'setup-1', 'Doc › Setup › Setup'],
      [10, 'setup-guide', 'setup-2', 'Doc › Setup'],
    ]);
    expect(sections[1]!.text).toContain('# not a heading');
  });

  it('has the sections the error bodies and server cards link to, on the docs pages', () => {
    const pages = readDocsPages('.');
    const anchorsOf = (page: string) => docsSections(pages.find((p) => p.page === page) ?? { page, markdown: '' }).map((s) => s.slug);
    expect(anchorsOf(AGENT_ERRORS_SECTION.page)).toContain(AGENT_ERRORS_SECTION.anchor);
    expect(pages.map((p) => p.page)).toContain(AGENT_DOCS_PAGE);
  });

  it('cuts an excerpt around the first term found, as plain text', () => {
    const text = `${'word '.repeat(200)}the **token_expired** code | means ${'more '.repeat(200)}`;
    const excerpt = excerptOf(text, ['token_expired']);
    expect(excerpt).toMatch(/^….*token_expired code means.*…$/);
    expect(excerpt.length).toBeLessThan(340);
    expect(excerptOf('short text', ['absent'])).toBe('short text');
  });
});

describe('the server cards and discovery', () => {
  it("speak the SDK's protocol versions, in at most 100 characters of description, under a reverse-DNS name", () => {
    expect([...MCP_PROTOCOL_VERSIONS]).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
    expect(SERVER_DESCRIPTION.length).toBeLessThanOrEqual(100);
    expect(serverCardName('https://pay.example.com')).toBe('com.example.pay/mcp');
    expect(serverCardName('http://localhost:3000')).toBe('localhost/mcp');
  });
});

describe('the origins that may call the MCP endpoint', () => {
  const local = process.env.MOR_LOCAL;
  afterEach(() => {
    process.env.MOR_LOCAL = local;
  });

  it("are none (a server), the deployment's own, and loopback ones on the local stack only", () => {
    const own = new URL(process.env.DASHBOARD_URL!).origin;
    process.env.MOR_LOCAL = '1';
    for (const origin of [undefined, own, 'http://localhost:6274', 'http://127.0.0.1:9']) expect(agentOriginAllowed(origin), String(origin)).toBe(true);
    for (const origin of ['https://evil.example', 'http://localhost.evil.example', 'null', `${own}.evil.example`])
      expect(agentOriginAllowed(origin), origin).toBe(false);
    process.env.MOR_LOCAL = '';
    expect(agentOriginAllowed('http://localhost:6274')).toBe(own === 'http://localhost:6274');
    expect(agentOriginAllowed(own)).toBe(true);
  });
});
