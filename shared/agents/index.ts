/**
 * The agents module's front door (MCP tokens and the agents' sign-in): all that other modules may use of it, besides
 * its *.schemas.ts (the pure door: schemas and the value lists they are written in).
 */
export { type AgentPrincipal, authenticateAgentRequest } from './agent-auth.service.ts';
export { createMcpToken, listMcpTokenSummaries, revokeMcpToken, revokeMcpTokensMadeBy, revokeMcpTokensOfMember } from './mcp-tokens.service.ts';
