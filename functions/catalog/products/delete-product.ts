import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { deleteProduct } from '../../../shared/catalog/products.service.ts';

export const handler = route(catalogRoutes.deleteProduct, async ({ organization, params }) => ({
  status: 200,
  body: await deleteProduct(organization.id, params.productId),
}));
