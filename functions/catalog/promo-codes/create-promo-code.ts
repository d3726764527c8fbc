import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as catalogRoutes from '../../../shared/catalog/routes.ts';
import { createPromoCode } from '../../../shared/catalog/promo-codes.service.ts';

export const handler = route(catalogRoutes.createPromoCode, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createPromoCode(organization.id, body)),
}));
