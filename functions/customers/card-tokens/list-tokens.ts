import { listReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';
import { listCardTokens } from '../../../shared/customers/card-tokens.service.ts';

export const handler = route(customerRoutes.listCardTokens, async ({ organization, query }) => ({
  status: 200,
  body: listReply(await listCardTokens(organization.id, query), query),
}));
