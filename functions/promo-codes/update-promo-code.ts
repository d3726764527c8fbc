import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as organizationRoutes from '../../shared/routes/organization.ts';
import { updatePromoCode } from '../../shared/services/promo-codes.ts';

export const handler = route(organizationRoutes.updatePromoCode, async ({ organization, params, body }) => ({
  status: 200,
  body: objectReply(await updatePromoCode(organization.id, params.promoCodeId!, body)),
}));
