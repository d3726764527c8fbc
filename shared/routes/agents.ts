/**
 * The agent endpoint: MCP over Streamable HTTP at `/api/mcp` (`Authorization: Bearer` an OAuth access token or a user
 * MCP token), the MCP server cards at the host's root, and the dashboard back end of user MCP tokens.
 */
import { mcp, mcpGet, mcpDelete, serverCard, legacyServerCard, createMcpToken, listMcpTokens, revokeMcpToken } from '../agents/routes.ts';

export { mcp, mcpGet, mcpDelete, serverCard, legacyServerCard, createMcpToken, listMcpTokens, revokeMcpToken };

export const agentRoutes = {
  mcp,
  mcpGet,
  mcpDelete,
  serverCard,
  legacyServerCard,
  createMcpToken,
  listMcpTokens,
  revokeMcpToken,
};
