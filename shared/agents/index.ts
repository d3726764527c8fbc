/** The agents module's front door: what other modules may use (MCP tokens, the agents' sign-in and the docs index). */
export { type AgentPrincipal, authenticateAgentRequest } from './agent-auth.service.ts';
export { buildDocsIndex, DOCS_INDEX_ASSET, type DocsSource, headingSlug } from './docs-index.ts';
export { createMcpToken, listMcpTokenSummaries, revokeMcpToken } from './mcp-tokens.service.ts';
