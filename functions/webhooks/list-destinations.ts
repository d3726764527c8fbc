import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { listDestinations } from '../../shared/services/webhooks.ts';

export const handler = route(routes.listWebhookDestinations, async ({ merchant }) => ({ status: 200, body: await listDestinations(merchant) }));
