import { route } from '../../shared/access/auth-none.ts';
import * as agentRoutes from '../../shared/agents/routes.ts';
import { legacyServerCard } from '../../shared/agents/server-cards.ts';
import { discoveryReply, etagOf } from '../../shared/platform/http/discovery.ts';

/** The same for every request of the container (the deployment's origin). */
const card = legacyServerCard();
const etag = etagOf(card);

export const handler = route(agentRoutes.legacyServerCard, ({ event }) => discoveryReply(card, etag, event.headers['if-none-match']));
