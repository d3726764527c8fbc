import { route } from '../../shared/access/auth-session.ts';
import * as agentRoutes from '../../shared/agents/routes.ts';
import { createMcpToken } from '../../shared/agents/mcp-tokens.service.ts';

export const handler = route(agentRoutes.createMcpToken, async ({ merchant, principal, body }) => ({
  status: 201,
  body: await createMcpToken(merchant, principal, body),
}));
