import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { updateProduct } from '../../shared/services/products.ts';

export const handler = route(organizationRoutes.updateProduct, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updateProduct(organization.id, params.productId!, body.product)),
}));
