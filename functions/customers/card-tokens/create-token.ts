import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-org-api-key.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';
import { createStageCardToken } from '../../../shared/customers/card-tokens.service.ts';

export const handler = route(customerRoutes.createStageCardToken, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createStageCardToken(organization.id, body)),
}));
