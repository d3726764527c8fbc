import { route } from '../../shared/access/auth-session.ts';
import * as agentRoutes from '../../shared/agents/routes.ts';
import { revokeMcpToken } from '../../shared/agents/mcp-tokens.service.ts';

export const handler = route(agentRoutes.revokeMcpToken, async ({ merchant, principal, params }) => {
  await revokeMcpToken(merchant, principal.userId, params.mcpTokenId);
  return { status: 204 };
});
