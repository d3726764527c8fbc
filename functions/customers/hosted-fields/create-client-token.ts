import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';
import { mintClientToken } from '../../../shared/customers/client-tokens.service.ts';

export const handler = route(customerRoutes.createClientToken, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await mintClientToken(organization.id, body)),
}));
