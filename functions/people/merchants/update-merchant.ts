import * as peopleRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { updateWebsiteUrl } from '../../../shared/people/merchants.service.ts';

export const handler = route(peopleRoutes.updateMerchant, async ({ merchant, body }) => ({
  status: 200,
  body: await updateWebsiteUrl(merchant, body.websiteUrl),
}));
