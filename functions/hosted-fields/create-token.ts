import { objectReply } from '../../shared/http/envelopes.ts';
import { route } from '../../shared/http/auth-client-token.ts';
import { tokenizeHostedFieldsCard } from '../../shared/hosted-fields/tokenize.ts';
import * as paymentRoutes from '../../shared/routes/payments.ts';

export const handler = route(paymentRoutes.tokenizeHostedFields, async ({ principal, body }) => ({
  status: 201,
  body: objectReply(await tokenizeHostedFieldsCard(principal, body)),
}));
