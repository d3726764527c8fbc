import { route } from '../../shared/access/auth-none.ts';
import * as agentRoutes from '../../shared/agents/routes.ts';
import { mcpMethodNotAllowed } from '../../shared/agents/agent-errors.ts';

export const handler = route(agentRoutes.mcpDelete, () => {
  throw mcpMethodNotAllowed('DELETE');
});
