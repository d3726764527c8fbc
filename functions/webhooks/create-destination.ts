import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { createDestination } from '../../shared/services/webhooks.ts';

export const handler = route(routes.createWebhookDestination, async ({ merchant, body }) => ({
  status: 201,
  body: await createDestination(merchant, body),
}));
