import { route } from '../../shared/access/auth-none.ts';
import * as agentRoutes from '../../shared/agents/routes.ts';
import { serverCard } from '../../shared/agents/server-cards.ts';
import { discoveryHeaders } from '../../shared/platform/http/discovery.ts';

/** The same for every request of the container (the deployment's origin). */
const card = serverCard();

export const handler = route(agentRoutes.serverCard, () => ({ status: 200, body: card, headers: { ...discoveryHeaders } }));
