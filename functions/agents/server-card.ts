import { route } from '../../shared/access/auth-none.ts';
import * as agentRoutes from '../../shared/agents/routes.ts';
import { serverCard } from '../../shared/agents/server-cards.ts';
import { discoveryReply, etagOf } from '../../shared/platform/http/discovery.ts';

/** The same for every request of the container (the deployment's origin). */
const card = serverCard();
const etag = etagOf(card);

export const handler = route(agentRoutes.serverCard, ({ event }) => discoveryReply(card, etag, event.headers['if-none-match']));
