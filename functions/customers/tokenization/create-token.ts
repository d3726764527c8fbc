import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';
import { cardInputOf, hostCardFieldNames } from '../../../shared/customers/tokenization.schemas.ts';
import { cardTokenView, createCardToken } from '../../../shared/customers/card-tokens.service.ts';

/** `POST /tokens` on the tokenization host: the organization is the scope-checked `X-Organization-Id`. */
export const handler = route(customerRoutes.tokenizeOnHost, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(cardTokenView(await createCardToken(organization.id, cardInputOf(body), new Date(), hostCardFieldNames))),
}));
