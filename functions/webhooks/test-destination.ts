import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { pingDestination } from '../../shared/services/webhooks.ts';

export const handler = route(routes.testWebhookDestination, async ({ merchant, params }) => ({ status: 200, body: await pingDestination(merchant, params.id!) }));
