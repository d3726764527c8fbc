import { route } from '../../shared/access/auth-agent-token.ts';
import * as agentRoutes from '../../shared/agents/routes.ts';
import { answerMcpRequest } from '../../shared/agents/mcp.service.ts';

export const handler = route(agentRoutes.mcp, ({ principal, event }) => answerMcpRequest(principal, event));
