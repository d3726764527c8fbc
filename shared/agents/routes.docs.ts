/** The API reference's entries of the agents routes (`shared/agents/routes.ts`), read only by the OpenAPI document's builder. */
import { exampleIds } from '../platform/http/example-ids.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const agentsDocs = {
  mcp: {
    description:
      "The MCP endpoint (Model Context Protocol over Streamable HTTP), for AI agents: one JSON-RPC 2.0 message or a batch per request, answered with JSON (no event stream, no session: the endpoint is stateless). `Authorization: Bearer` takes an OAuth access token (`mor_oat_…`, from this server's OAuth flow) or a user MCP token (`mor_mcp_…`, from the Developer Dashboard); the token's scopes decide which tools it may call. Send `Accept: application/json, text/event-stream` as MCP clients do. A notification alone is answered 202 without a body; JSON-RPC errors (an unknown method, bad tool arguments) are answered 200 with an `error` member.",
    example: {
      headers: { Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-06-18' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'research-agent', version: '1.0.0' } },
      },
    },
    errors: [
      { status: 400, code: 'request.malformed_json', when: 'The body is not UTF-8 text (a body that is text but not JSON is a JSON-RPC Parse error).' },
      { status: 403, code: 'insufficient_scope', when: 'A tool call needs a scope the token was not granted (`WWW-Authenticate` names it).' },
    ],
  },
  mcpGet: {
    description:
      'Always 405 with `Allow: POST`: the endpoint opens no server-sent event stream, so an MCP client that probes for one with GET falls back to plain POSTs.',
    example: {},
  },
  mcpDelete: {
    description: 'Always 405 with `Allow: POST`: the endpoint keeps no session, so there is none to end.',
    example: {},
  },
  serverCard: {
    description:
      "The MCP server card: the server's name, version and description and how to reach it (`remotes`: the Streamable HTTP URL and protocol versions), for registries and clients that discover servers by their host. Any origin may read it; cacheable (`ETag`, 304).",
    example: {},
  },
  legacyServerCard: {
    description:
      'The older form of the server card (`/.well-known/mcp.json`), kept for clients that still look there: the transport, the authentication it takes and that its tools are listed at run time. Any origin may read it; cacheable (`ETag`, 304).',
    example: {},
  },
  createMcpToken: {
    description:
      "Mints a user MCP token: it acts as you on this merchant, with the scopes chosen, for 1 to 7 days (default 7), on this deployment's mode only. The token is in this answer only (it is stored hashed): paste it into your agent's configuration as `Authorization: Bearer`. It stops working when it expires, when you revoke it, or when you leave the merchant's team.",
    example: {
      params: { merchantId: exampleIds.merchantId },
      body: { name: 'Claude desktop', scopes: ['merchant:read', 'product:read', 'checkout:read'], expiresInDays: 7 },
    },
  },
  listMcpTokens: {
    description:
      'Your MCP tokens on this merchant, oldest first, a page at a time: never the tokens themselves, but a hint (their last characters), the scopes, when they expire, when they were last used and when they were revoked.',
    example: { params: { merchantId: exampleIds.merchantId }, query: { page: '1', limit: '20' } },
  },
  revokeMcpToken: {
    description:
      'Revokes one of your MCP tokens on this merchant: it stops working at once, for every agent that holds it. Revoking it again is answered alike.',
    example: { params: { merchantId: exampleIds.merchantId, mcpTokenId: exampleIds.mcpTokenIdToDelete } },
  },
} satisfies ModuleDocs<typeof routes>;
