import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-client-token.ts';
import { tokenizeHostedFieldsCard } from '../../../shared/customers/hosted-fields.tokenize.ts';
import * as paymentRoutes from '../../../shared/customers/routes.ts';

export const handler = route(paymentRoutes.tokenizeHostedFields, async ({ principal, body }) => ({
  status: 201,
  body: objectReply(await tokenizeHostedFieldsCard(principal, body)),
}));
