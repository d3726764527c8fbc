import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { updateProduct } from '../../../shared/catalog/products.service.ts';

export const handler = route(catalogRoutes.updateProduct, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updateProduct(organization.id, params.productId, body.product)),
}));
