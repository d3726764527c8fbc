import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { createProduct } from '../../../shared/catalog/products.service.ts';

export const handler = route(catalogRoutes.createProduct, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createProduct(organization.id, body.product)),
}));
