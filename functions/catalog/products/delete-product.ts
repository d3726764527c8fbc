import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as organizationRoutes from '../../../shared/catalog/routes.ts';
import { deleteProduct } from '../../../shared/catalog/products.service.ts';

export const handler = route(organizationRoutes.deleteProduct, async ({ organization, params }) => ({
  status: 200,
  body: await deleteProduct(organization.id, params.productId!),
}));
