import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-org-api-key.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';
import { createStageCardToken } from '../../shared/services/card-tokens.ts';

export const handler = route(paymentRoutes.createStageCardToken, async ({ organization, body }) => ({
  status: 201,
  body: objectReply(await createStageCardToken(organization.id, body)),
}));
