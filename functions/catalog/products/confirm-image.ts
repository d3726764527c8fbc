import { route } from '../../../shared/access/auth-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { confirmProductImage } from '../../../shared/catalog/product-images.service.ts';

export const handler = route(catalogRoutes.confirmProductImage, async ({ merchant, params }) => ({
  status: 200,
  body: await confirmProductImage(merchant.id, params.productId, params.uploadId),
}));
