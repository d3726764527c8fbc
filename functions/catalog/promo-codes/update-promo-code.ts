import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { updatePromoCode } from '../../../shared/catalog/promo-codes.service.ts';

export const handler = route(catalogRoutes.updatePromoCode, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updatePromoCode(organization.id, params.promoCodeId, body)),
}));
