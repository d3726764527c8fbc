import { route } from '../../../shared/access/auth-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { createProductImageUpload } from '../../../shared/catalog/product-images.service.ts';

export const handler = route(catalogRoutes.createProductImageUpload, async ({ merchant, params, body }) => ({
  status: 201,
  body: await createProductImageUpload(merchant.id, params.productId, body),
}));
