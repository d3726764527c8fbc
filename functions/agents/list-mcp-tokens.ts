import { route } from '../../shared/access/auth-session.ts';
import * as agentRoutes from '../../shared/agents/routes.ts';
import { listMcpTokenPage } from '../../shared/agents/mcp-tokens.service.ts';

export const handler = route(agentRoutes.listMcpTokens, async ({ merchant, principal, query }) => ({
  status: 200,
  body: await listMcpTokenPage(merchant, principal.userId, query),
}));
