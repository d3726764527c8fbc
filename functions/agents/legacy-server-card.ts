import { route } from '../../shared/access/auth-none.ts';
import * as agentRoutes from '../../shared/agents/routes.ts';
import { legacyServerCard } from '../../shared/agents/server-cards.ts';
import { discoveryHeaders } from '../../shared/platform/http/discovery.ts';

/** The same for every request of the container (the deployment's origin). */
const card = legacyServerCard();

export const handler = route(agentRoutes.legacyServerCard, () => ({ status: 200, body: card, headers: { ...discoveryHeaders } }));
