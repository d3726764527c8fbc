import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { listPromoCodes } from '../../../shared/catalog/promo-codes.service.ts';

export const handler = route(catalogRoutes.listPromoCodes, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listPromoCodes(organization.id, query), query),
}));
