import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { getPromoCode } from '../../../shared/catalog/promo-codes.service.ts';

export const handler = route(catalogRoutes.getPromoCode, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(await getPromoCode(organization.id, params.promoCodeId)),
}));
