/**
 * The MCP server cards of a deployment, at its host's root: what a client reads before connecting.
 * - `/.well-known/mcp/server-card.json`: the server card of the MCP Server Card extension (SEP-2127): reverse-DNS
 *   `name`, `version`, `title`, a `description` of at most 100 characters, and the Streamable HTTP remote with the
 *   protocol versions it speaks.
 * - `/.well-known/mcp.json`: the legacy card (the SEP-1649 draft's shape), which the spec keeps available beside it.
 */
import { MCP_PATH } from '../domain/agent-scopes.ts';
import { config } from '../platform/config.ts';
import { docsUrl } from '../platform/http/docs-links.ts';
import { MCP_PROTOCOL_VERSIONS, SERVER_DESCRIPTION, SERVER_INFO } from './server-info.ts';

/** The docs page about the agent endpoint (`docs/mcp.md`): the cards' website and documentation. */
export const AGENT_DOCS_PAGE = 'mcp';

/** The reverse-DNS name of the deployment's server: its host reversed, then `/mcp` (`pay.example.com` → `com.example.pay/mcp`). */
export const serverCardName = (origin: string): string => `${new URL(origin).hostname.split('.').reverse().join('.')}/mcp`;

export const serverCard = () => ({
  $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json',
  name: serverCardName(config.publicOrigin),
  version: SERVER_INFO.version,
  title: SERVER_INFO.title,
  description: SERVER_DESCRIPTION,
  websiteUrl: docsUrl(AGENT_DOCS_PAGE),
  remotes: [{ type: 'streamable-http', url: `${config.publicOrigin}${MCP_PATH}`, supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] }],
});

export const legacyServerCard = () => ({
  $schema: 'https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json',
  version: '1.0',
  protocolVersion: MCP_PROTOCOL_VERSIONS[0],
  serverInfo: { name: serverCardName(config.publicOrigin), title: SERVER_INFO.title, version: SERVER_INFO.version },
  description: SERVER_DESCRIPTION,
  documentationUrl: docsUrl(AGENT_DOCS_PAGE),
  transport: { type: 'streamable-http', endpoint: MCP_PATH, url: `${config.publicOrigin}${MCP_PATH}` },
  capabilities: { tools: { listChanged: false } },
  authentication: { required: true, schemes: ['oauth2', 'bearer'] },
  tools: 'dynamic',
});
