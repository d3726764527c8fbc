import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { deleteDestination } from '../../shared/services/webhooks.ts';

export const handler = route(routes.deleteWebhookDestination, async ({ merchant, params }) => {
  await deleteDestination(merchant, params.id!);
  return { status: 204 };
});
