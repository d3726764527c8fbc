import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { getProduct } from '../../../shared/catalog/products.service.ts';

export const handler = route(catalogRoutes.getProduct, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getProduct(organization.id, params.productId)),
}));
