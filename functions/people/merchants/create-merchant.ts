import * as merchantRoutes from '../../../shared/people/routes.ts';
import { route } from '../../../shared/access/auth-api-key.ts';
import { createSubMerchant } from '../../../shared/people/merchants.service.ts';

export const handler = route(merchantRoutes.createMerchant, async ({ principal, body }) => ({
  status: 201,
  body: await createSubMerchant(principal.merchantId, body),
}));
