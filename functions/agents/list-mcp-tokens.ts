import { route } from '../../shared/access/auth-session.ts';
import * as agentRoutes from '../../shared/agents/routes.ts';
import { listMcpTokenSummaries } from '../../shared/agents/mcp-tokens.service.ts';

export const handler = route(agentRoutes.listMcpTokens, async ({ merchant, principal }) => ({
  status: 200,
  body: await listMcpTokenSummaries(merchant, principal.userId),
}));
