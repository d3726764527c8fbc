import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { getDestination } from '../../shared/services/webhooks.ts';

export const handler = route(routes.getWebhookDestination, async ({ merchant, params }) => ({ status: 200, body: await getDestination(merchant, params.id!) }));
