/** The agents module's front door: what other modules may use (MCP tokens and the agents' sign-in). */
export { type AgentPrincipal, authenticateAgentRequest } from './agent-auth.service.ts';
export { createMcpToken, listMcpTokenSummaries, revokeMcpToken } from './mcp-tokens.service.ts';
