import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { listProducts } from '../../../shared/catalog/products.service.ts';

export const handler = route(catalogRoutes.listProducts, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listProducts(organization.id, query), query),
}));
