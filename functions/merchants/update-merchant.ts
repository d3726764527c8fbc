import { routes } from '../../infra/routes.ts';
import { route } from '../../shared/http/route.ts';
import { updateWebsiteUrl } from '../../shared/services/merchants.ts';

export const handler = route(routes.updateMerchant, async ({ merchant, body }) => ({
  status: 200,
  body: await updateWebsiteUrl(merchant, body.websiteUrl),
}));
