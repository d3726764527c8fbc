import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { deleteProduct } from '../../shared/services/products.ts';

export const handler = route(organizationRoutes.deleteProduct, async ({ organization, params }) => ({
  status: 200,
  body: await deleteProduct(organization.id, params.productId!),
}));
