import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';
import { cardTokenView, getCardToken } from '../../../shared/customers/card-tokens.service.ts';

export const handler = route(customerRoutes.getCardToken, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(cardTokenView(await getCardToken(organization.id, params.tokenId))),
}));
