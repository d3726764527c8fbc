import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { cardTokenView, getCardToken } from '../../shared/services/card-tokens.ts';

export const handler = route(paymentRoutes.getCardToken, async ({ organization, params }) => ({
  status: 200,
  body: objectReply(cardTokenView(await getCardToken(organization.id, params.tokenId!))),
}));
