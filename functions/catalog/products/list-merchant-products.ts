import { route } from '../../../shared/access/auth-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { listMerchantProducts } from '../../../shared/catalog/products.service.ts';

export const handler = route(catalogRoutes.listMerchantProducts, async ({ merchant, query }) => ({
  status: 200,
  body: await listMerchantProducts(merchant.id, query),
}));
