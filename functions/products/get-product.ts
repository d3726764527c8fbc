import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { getProduct } from '../../shared/services/products.ts';

export const handler = route(organizationRoutes.getProduct, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getProduct(organization.id, params.productId!)),
}));
