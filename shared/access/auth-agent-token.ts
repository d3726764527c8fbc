/** `route()` for the MCP endpoint (`auth: 'agentToken'`): an agent's bearer token, with its merchant and membership checked. */
import { authenticateAgentRequest } from '../agents/index.ts';
import { authMiddleware } from './middleware.ts';
import { routeOfKind } from './route.ts';

export const route = routeOfKind<'agentToken'>(authMiddleware({ agentToken: authenticateAgentRequest }));
